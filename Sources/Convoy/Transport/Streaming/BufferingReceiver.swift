import Foundation

/// Collects a streamed transfer whole and hands it on as one ``TransportResponse``: a buffered
/// call on a transport that sees an answer's head only when it streams.
///
/// It is also how a buffered call hears of its upload's progress, which only the streaming side
/// of a transport reports.
///
/// FoundationNetworking tells a task with a completion handler nothing about a head whose body
/// then fails (`response` and `task.response` stay `nil`), so a broken framing there would pass
/// for a lost connection; its delegate hears of the head at once.
final class BufferingReceiver: TransferReceiver, @unchecked Sendable {
  private let lock = NSLock()
  private var head: HTTPResponse?
  private var body = Data()
  private let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  private let uploadProgress: (@Sendable (TransferProgress) -> Void)?

  init(
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) {
    self.uploadProgress = uploadProgress
    self.completion = completion
  }

  func transferDidSendBody(_ progress: TransferProgress) {
    uploadProgress?(progress)
  }

  func transferDidReceiveHead(_ head: HTTPResponse) {
    lock.withLock { self.head = head }
  }

  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow {
    lock.withLock { body.append(bytes) }
    return .proceed
  }

  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>) {
    let (head, body) = lock.withLock { () -> (HTTPResponse?, Data) in
      defer { self.body = Data() }
      return (self.head, self.body)
    }
    switch result {
    case .failure(let failure):
      completion(.failure(failure))
    case .success(let metrics):
      guard let head else {
        completion(
          .failure(TransportFailure(kind: .badServerResponse, detail: "the answer was not HTTP")))
        return
      }
      completion(.success(TransportResponse(head: head, data: body, metrics: metrics)))
    }
  }
}
