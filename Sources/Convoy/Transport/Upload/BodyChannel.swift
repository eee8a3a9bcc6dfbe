import Foundation

/// A bounded queue of chunks between one producer and one consumer: the producer waits while it
/// holds `capacity` bytes or more.
final class BodyChannel: Sendable {
  private struct State {
    var queue = ChunkQueue()
    var isFinished = false
    var failure: (any Error)?
    var isClosed = false
    var trailers = HTTPHeaders()
    var consumer: CheckedContinuation<Data?, any Error>?
    var producer: CheckedContinuation<Void, any Error>?
  }

  private let capacity: Int
  private let state = Locked(State())

  init(capacity: Int = 256 * 1024) {
    self.capacity = capacity
  }

  var trailers: HTTPHeaders { state.withLock { $0.trailers } }

  func setTrailers(_ trailers: HTTPHeaders) {
    state.withLock { $0.trailers = trailers }
  }

  func send(_ data: Data) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let (waiting, resumeProducer) = state.withLock {
        state -> (CheckedContinuation<Data?, any Error>?, Bool?) in
        guard !state.isClosed, !state.isFinished else { return (nil, false) }
        if let consumer = state.consumer {
          state.consumer = nil
          return (consumer, true)
        }
        state.queue.append(data)
        if state.queue.byteCount < capacity { return (nil, true) }
        state.producer = continuation
        return (nil, nil)
      }
      waiting?.resume(returning: data)
      switch resumeProducer {
      case true?: continuation.resume()
      case false?: continuation.resume(throwing: CancellationError())
      case nil: break
      }
    }
  }

  func finish() {
    end(with: nil)
  }

  func fail(_ error: any Error) {
    end(with: error)
  }

  /// The consumer is gone: a waiting producer fails, and later writes too.
  func close() {
    let (producer, consumer) = state.withLock { state in
      state.isClosed = true
      defer { (state.producer, state.consumer) = (nil, nil) }
      return (state.producer, state.consumer)
    }
    producer?.resume(throwing: CancellationError())
    consumer?.resume(throwing: CancellationError())
  }

  func next() async throws -> Data? {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Data?, any Error>) in
      enum Now {
        case chunk(Data, CheckedContinuation<Void, any Error>?)
        case end((any Error)?)
        case wait
      }
      let now = state.withLock { state -> Now in
        if state.isClosed { return .end(CancellationError()) }
        if let chunk = state.queue.takeFirst() {
          var producer: CheckedContinuation<Void, any Error>?
          if state.queue.byteCount < capacity {
            producer = state.producer
            state.producer = nil
          }
          return .chunk(chunk, producer)
        }
        if state.isFinished { return .end(state.failure) }
        state.consumer = continuation
        return .wait
      }
      switch now {
      case .chunk(let chunk, let producer):
        producer?.resume()
        continuation.resume(returning: chunk)
      case .end(nil):
        continuation.resume(returning: nil)
      case .end(let failure?):
        continuation.resume(throwing: failure)
      case .wait:
        break
      }
    }
  }

  private func end(with failure: (any Error)?) {
    let consumer = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
      guard !state.isFinished else { return nil }
      state.isFinished = true
      state.failure = failure
      defer { state.consumer = nil }
      return state.consumer
    }
    if let failure {
      consumer?.resume(throwing: failure)
    } else {
      consumer?.resume(returning: nil)
    }
  }
}
