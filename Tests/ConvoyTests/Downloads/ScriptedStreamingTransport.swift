import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that streams scripted answers, one per request in turn: a head, body pieces, and
/// an end that may be a failure part-way, as a dropped connection is.
final class ScriptedStreamingTransport: HTTPTransport, @unchecked Sendable {
  struct Script: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var pieces: [Data]
    var failure: TransportFailure?
  }

  private let lock = NSLock()
  private var scripts: [Script]
  private var sent: [TransportRequest] = []

  init(_ scripts: [Script]) {
    self.scripts = scripts
  }

  /// Every request received, in order.
  var requests: [TransportRequest] { lock.withLock { sent } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    try await CallbackTransfer.streamed(request) { startStreamingTransfer(request, receiver: $0) }
  }

  func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
  {
    let script = lock.withLock { () -> Script? in
      sent.append(request)
      return scripts.isEmpty ? nil : scripts.removeFirst()
    }
    DispatchQueue.global().async {
      guard let script else {
        receiver.transferDidComplete(
          .failure(TransportFailure(kind: .other, detail: "no script left")))
        return
      }
      receiver.transferDidReceiveHead(
        HTTPResponse(
          statusCode: script.status, url: request.urlRequest.url, headers: script.headers))
      for piece in script.pieces { _ = receiver.transferDidReceiveBody(piece) }
      let received = script.pieces.reduce(0) { $0 + $1.count }
      receiver.transferDidComplete(
        script.failure.map { .failure($0) }
          ?? .success(
            TransferMetrics(startDate: Date(), duration: 0, bytesReceived: received, bytesSent: 0)))
    }
    return Unstoppable()
  }

  private struct Unstoppable: StreamingTransferHandle {
    func cancel() {}
    func resumeReceiving() {}
  }
}
