import Foundation

/// The chunks a ``RequestBodyWriter`` writes, produced by its closure in a task of its own.
final class WriterChunks: BodyChunkProducer {
  private let channel = BodyChannel()
  private let write: @Sendable (RequestBodyWriter) async throws -> Void
  private let task = Locked<Task<Void, Never>?>(nil)

  init(_ write: @escaping @Sendable (RequestBodyWriter) async throws -> Void) {
    self.write = write
  }

  func next() async throws -> Data? {
    startIfNeeded()
    return try await channel.next()
  }

  var trailers: HTTPHeaders { channel.trailers }

  func cancel() {
    channel.close()
    task.withLock { $0 }?.cancel()
  }

  /// The closure starts with the first read, so that a body never read (a call that failed
  /// before sending) runs none of the app's code.
  private func startIfNeeded() {
    task.withLock { task in
      guard task == nil else { return }
      let channel = channel
      let write = write
      task = Task {
        do {
          try await write(RequestBodyWriter(channel: channel))
          channel.finish()
        } catch {
          channel.fail(error)
        }
      }
    }
  }
}
