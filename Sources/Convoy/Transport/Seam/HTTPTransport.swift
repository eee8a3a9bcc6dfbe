import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Moves one HTTP exchange over the network: a request head and body out, an answer's head and
/// body back, both ways streaming.
///
/// A transport is one function: ``send(_:)`` sends ``TransportRequest/urlRequest``'s head, then
/// its body (in memory, from ``TransportRequest/bodyFileURL``, or produced as it is sent by
/// ``TransportRequest/bodyStream``), and returns a ``TransportAnswer`` once the answer's head has
/// arrived; the answer's ``TransportBody`` is read after that, while the request body may still be
/// going out (full duplex). A slow server pauses the request body's source; a slow reader pauses
/// the answer.
///
/// A transport follows no redirects (it hands 3xx answers back as they are; Convoy's
/// ``RedirectPolicy`` decides), retries nothing and judges no status: those rules live once,
/// above the transport, so every transport behaves the same. Decorators (``CachingTransport``,
/// ``CookieTransport``, ``CoalescingTransport``) wrap another transport's `send`. It is also the
/// test seam: `ConvoyTesting`'s stub transport conforms to it.
///
/// ```swift
/// struct HeaderStamping: HTTPTransport {
///   let wrapped: any HTTPTransport
///
///   func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
///     var request = request
///     request.urlRequest.setValue("convoy-docs", forHTTPHeaderField: "X-Client")
///     return try await wrapped.send(request)
///   }
/// }
/// ```
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns its answer once the answer's head has arrived.
  ///
  /// ``TransportRequest/answerDelivery`` says whether the caller will read the body whole (the
  /// transport may then return once all of it has arrived) or as a stream. The transport stops
  /// the transfer and throws ``TransportFailure/Kind/cancelled`` at once when
  /// ``TransportRequest/cancellation`` is tripped or the calling task is cancelled, before or
  /// after the head: Convoy's deadline for the call relies on it.
  ///
  /// - Throws: ``TransportFailure`` when no answer's head arrived.
  nonisolated(nonsending) func send(_ request: TransportRequest) async throws(TransportFailure)
    -> TransportAnswer
}

/// Cancels one transfer.
package protocol TransferHandle: Sendable {
  /// Stops the transfer; its completion reports ``TransportFailure/Kind/cancelled`` unless it
  /// already completed. Calling it more than once is harmless.
  func cancel()
}

/// How a caller will read an answer's body, so that a transport can deliver it the cheapest way.
public enum AnswerDelivery: Sendable, Hashable {
  /// Read whole, with no use for the pieces before the end: a transport may collect the body
  /// itself and hand it over complete.
  case whole
  /// Read as it arrives, with at most `bufferSize` bytes waiting for the reader before the
  /// transfer is paused. `spillsToDisk` lets a transport that cannot pause write what is past its
  /// overflow limit to a temporary file instead of failing with
  /// ``TransportFailure/Kind/readerTooSlow`` (a download, whose reader must never be refused).
  case streamed(bufferSize: Int, spillsToDisk: Bool = false)
}

/// What a transport sends.
public struct TransportRequest: Sendable {
  /// The method, URL, headers and in-memory body.
  public var urlRequest: URLRequest
  /// A file whose contents are the body, streamed instead of `urlRequest.httpBody`.
  public var bodyFileURL: URL?
  /// A body produced while it is sent, instead of `urlRequest.httpBody`: the transport opens a
  /// ``RequestBodyStream`` of it for each transfer (``StreamedBody/open(at:)``). A transport
  /// that cannot stream a request body fails with
  /// ``TransportFailure/Kind/notSupportedByTransport``, never buffering it in silence.
  public var bodyStream: StreamedBody?
  /// The longest the transport may wait for the next bytes before failing with
  /// ``TransportFailure/Kind/timedOut``.
  public var idleTimeout: TimeInterval
  /// Whether the body may be sent again; ``RedirectPolicy`` follows a 307 or 308 that would
  /// resend it only when it may (``RequestBody/isReplayable``).
  public var isBodyReplayable: Bool
  /// How large an answer may be; a transport that can stop a transfer early stops it when a
  /// limit is passed, and Convoy checks every complete answer against them.
  public var responseLimits: ResponseLimits
  /// Whether the answer's body will be read whole or as a stream.
  public var answerDelivery: AnswerDelivery
  /// Told how much of the request body went out, when a transport can tell: bytes sent so far
  /// and, when known, in all. Called on the transport's thread; it must return quickly.
  public var uploadProgress: (@Sendable (TransferProgress) -> Void)?
  /// Tripped when the exchange must stop early; the transport stops the transfer then. Convoy
  /// gives each call's requests one of their own; ``TransferCancellation/none`` (the default)
  /// is never tripped.
  public var cancellation: TransferCancellation

  /// Creates a transport request.
  public init(
    urlRequest: URLRequest, bodyFileURL: URL? = nil, bodyStream: StreamedBody? = nil,
    idleTimeout: TimeInterval = 60, isBodyReplayable: Bool = true,
    responseLimits: ResponseLimits = ResponseLimits(), answerDelivery: AnswerDelivery = .whole,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    cancellation: TransferCancellation = .none
  ) {
    self.urlRequest = urlRequest
    self.bodyFileURL = bodyFileURL
    self.bodyStream = bodyStream
    self.idleTimeout = idleTimeout
    self.isBodyReplayable = isBodyReplayable
    self.responseLimits = responseLimits
    self.answerDelivery = answerDelivery
    self.uploadProgress = uploadProgress
    self.cancellation = cancellation
  }
}

/// What a transport got back.
public struct TransportResponse: Sendable {
  /// The status, URL and headers.
  public var head: HTTPResponse
  /// The body, decompressed; empty when there was none.
  public var data: Data
  /// Timing and size of the exchange.
  public var metrics: TransferMetrics
  /// The trailer fields that followed the body (a chunked HTTP/1.1 body, or HTTP/2); empty when
  /// there were none or the transport cannot read them.
  public var trailers = HTTPHeaders()

  /// The status code of ``head``.
  public var statusCode: Int { head.statusCode }
  /// The headers of ``head``, with repeated fields kept apart where the transport can tell them
  /// apart.
  public var headers: HTTPHeaders { head.headers }
  /// The head as Foundation's type, built on first access (see ``HTTPResponse/httpURLResponse``).
  public var httpURLResponse: HTTPURLResponse { head.httpURLResponse }

  /// Creates a response.
  public init(head: HTTPResponse, data: Data, metrics: TransferMetrics) {
    self.head = head
    self.data = data
    self.metrics = metrics
  }

  /// Creates a response from Foundation's, which becomes the head's
  /// ``HTTPResponse/httpURLResponse``; `headers`, when given, replace those read from it (a
  /// transport that kept repeated fields apart knows more than `HTTPURLResponse` holds).
  public init(
    httpURLResponse: HTTPURLResponse, headers: HTTPHeaders? = nil, data: Data,
    metrics: TransferMetrics
  ) {
    let head = HTTPResponse(httpURLResponse, headers: headers ?? HTTPHeaders(httpURLResponse))
    self.init(head: head, data: data, metrics: metrics)
  }
}
