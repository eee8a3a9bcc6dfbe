import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reads a streamed request body whole before a stub answers, as a server that reads the whole
/// request first would: the stub's routes then see the bytes in `httpBody`.
///
/// Cancelling stops the reading (and the app's writer) at once and completes as cancelled.
final class StubUpload: TransferHandle {
  /// The most a stub reads: a test that streams more is told so instead of filling memory.
  static let maximumBodySize = 64 << 20

  private struct State {
    var reading: Task<Void, Never>?
    var answering: (any TransferHandle)?
    var isCancelled = false
  }

  private let state = Locked(State())
  private let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void

  private init(
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) {
    self.completion = completion
  }

  /// Reads `request`'s body stream, then hands the request with its bytes in `httpBody` to
  /// `answer`; a body that fails completes with its failure.
  static func start(
    _ request: TransportRequest, body: StreamedBody,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void,
    answer:
      @escaping @Sendable (
        TransportRequest, @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
      ) -> any TransferHandle
  ) -> StubUpload {
    let once = OnceCompletion(completion)
    let upload = StubUpload(completion: once.call)
    let reading = Task {
      let collected: Result<Data, TransportFailure>
      do throws(TransportFailure) {
        collected = .success(try await read(body, progress: request.uploadProgress))
      } catch {
        collected = .failure(error)
      }
      switch collected {
      case .failure(let failure):
        once.call(.failure(failure))
      case .success(let bytes):
        var whole = request
        whole.bodyStream = nil
        whole.urlRequest.httpBody = bytes
        let handle = answer(whole, once.call)
        let isCancelled = upload.state.withLock { state in
          state.answering = handle
          return state.isCancelled
        }
        if isCancelled { handle.cancel() }
      }
    }
    upload.state.withLock { $0.reading = reading }
    return upload
  }

  func cancel() {
    let (reading, answering) = state.withLock { state in
      state.isCancelled = true
      return (state.reading, state.answering)
    }
    reading?.cancel()
    answering?.cancel()
    completion(.failure(TransportFailure(kind: .cancelled, detail: "cancelled")))
  }

  /// Reads `body` whole, telling `progress` how much was read as a transport tells how much it
  /// sent.
  private static func read(
    _ body: StreamedBody, progress: (@Sendable (TransferProgress) -> Void)?
  ) async throws(TransportFailure) -> Data {
    let stream = try body.open()
    defer { stream.cancel() }
    var bytes = Data()
    while let chunk = try await stream.next() {
      guard !Task.isCancelled else {
        throw TransportFailure(kind: .cancelled, detail: "cancelled")
      }
      bytes.append(chunk)
      guard bytes.count <= maximumBodySize else {
        throw TransportFailure(
          kind: .requestBodyFailed,
          detail: "a stub reads at most \(maximumBodySize) bytes of a streamed body")
      }
      progress?(TransferProgress(completedBytes: Int64(bytes.count), totalBytes: body.length))
    }
    return bytes
  }
}

/// A completion that runs the first time only.
private final class OnceCompletion: Sendable {
  private let completion: Locked<(@Sendable (Result<TransportResponse, TransportFailure>) -> Void)?>

  init(_ completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void) {
    self.completion = Locked(completion)
  }

  @Sendable func call(_ result: Result<TransportResponse, TransportFailure>) {
    let taken = completion.withLock { current in
      defer { current = nil }
      return current
    }
    taken?(result)
  }
}
