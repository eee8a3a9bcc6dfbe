import Foundation

/// What a transport hands back for one request: the head, and the body still to be read.
///
/// ``HTTPTransport/send(_:)`` returns it once the head has arrived (for a body asked for whole,
/// usually once all of it has). Convoy collects a buffered call's body with
/// ``collected(within:)``, the one place where answers are buffered, and hands a stream's body to
/// its reader.
public struct TransportAnswer: Sendable {
  /// The status, URL and headers.
  public var head: HTTPResponse
  /// The body, then its trailers.
  public var body: TransportBody

  /// Creates an answer from its head and body.
  public init(head: HTTPResponse, body: TransportBody) {
    self.head = head
    self.body = body
  }

  /// An answer received whole.
  public init(_ response: TransportResponse) {
    self.init(
      head: response.head,
      body: TransportBody(
        data: response.data, metrics: response.metrics, trailers: response.trailers))
  }

  /// The whole answer, read to its end: a body passing `limits` stops the transfer at once and
  /// fails with ``TransportFailure/Kind/responseTooLarge``.
  public func collected(within limits: ResponseLimits) async throws(TransportFailure)
    -> TransportResponse
  {
    switch body.storage {
    case .complete:
      return completeResponse!
    case .flowing(let buffer):
      var data = Data()
      while let chunk = try await buffer.nextChunk() {
        data.append(chunk)
        if data.count > limits.maximumBodySize {
          buffer.cancel()
          throw limits.failure("maximumBodySize", limits.maximumBodySize)
        }
      }
      let metrics =
        buffer.metrics
        ?? TransferMetrics(
          startDate: Date(), duration: 0, bytesReceived: data.count, bytesSent: 0)
      var response = TransportResponse(head: head, data: data, metrics: metrics)
      response.trailers = buffer.trailers
      return response
    }
  }

  /// The whole answer when its body arrived complete, without the call to an `async` function
  /// that collecting takes; `nil` when the body still flows.
  var completeResponse: TransportResponse? {
    guard case .complete(let data, let metrics, let trailers) = body.storage else { return nil }
    var response = TransportResponse(head: head, data: data, metrics: metrics)
    response.trailers = trailers
    return response
  }
}
