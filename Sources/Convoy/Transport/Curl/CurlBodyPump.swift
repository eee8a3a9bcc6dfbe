#if os(Linux)
  import Foundation

  /// Feeds a streamed request body to libcurl's read callback without ever blocking the loop
  /// thread.
  ///
  /// A task reads the body ahead into a queue of at most `capacity` bytes, and waits while it is
  /// full: a slow server slows the body's source down. A full queue lets the task go on only once
  /// libcurl has taken it down to half, so the task refills several chunks per wake-up rather
  /// than one per chunk taken (a wake-up per chunk is a thread switch per chunk, which slows a
  /// large upload down). The read callback, on the loop thread, copies from the queue; when it
  /// is empty the callback pauses the sending side, and the pump asks the loop (`wake`) to lift
  /// the pause once the next chunk is in.
  final class CurlBodyPump: @unchecked Sendable {
    /// What the read callback answers libcurl.
    enum Read: Equatable {
      case bytes(Int)
      /// The body is whole.
      case end
      /// Nothing is ready yet: pause sending until ``wake`` lifts it.
      case pause
      /// The body failed: abort the transfer (``failure`` says why).
      case abort
    }

    private struct State {
      var queue = ChunkQueue()
      var isEnded = false
      var failure: TransportFailure?
      var isStopped = false
      /// The read callback paused the transfer and waits to be woken.
      var isConsumerWaiting = false
      var producer: CheckedContinuation<Bool, Never>?
      var task: Task<Void, Never>?
    }

    private let stream: RequestBodyStream
    private let capacity: Int
    private let wake: @Sendable () -> Void
    private let state = Locked(State())

    init(stream: RequestBodyStream, capacity: Int = 256 << 10, wake: @escaping @Sendable () -> Void)
    {
      self.stream = stream
      self.capacity = capacity
      self.wake = wake
    }

    /// The body's length when known.
    var length: Int64? { stream.length }

    /// Why the body failed, once it did.
    var failure: TransportFailure? { state.withLock { $0.failure } }

    /// The trailers to send, once the body ended.
    var trailers: HTTPHeaders { stream.trailers }

    /// Starts reading ahead.
    func start() {
      let task = Task { [self] in await pump() }
      let isStopped = state.withLock { state in
        state.task = task
        return state.isStopped
      }
      if isStopped { task.cancel() }
    }

    /// Stops reading: the source is cancelled and a waiting producer released.
    func stop() {
      let (task, producer) = state.withLock { state in
        state.isStopped = true
        defer { state.producer = nil }
        return (state.task, state.producer)
      }
      producer?.resume(returning: false)
      task?.cancel()
      stream.cancel()
    }

    /// Copies queued bytes into libcurl's `buffer`; called on the loop thread.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
      var producer: CheckedContinuation<Bool, Never>?
      let read = state.withLock { state -> Read in
        guard state.failure == nil, !state.isStopped else { return .abort }
        guard !state.queue.isEmpty else {
          if state.isEnded { return .end }
          state.isConsumerWaiting = true
          return .pause
        }
        let copied = state.queue.copy(into: buffer)
        if state.queue.byteCount <= capacity / 2 {
          producer = state.producer
          state.producer = nil
        }
        return .bytes(copied)
      }
      producer?.resume(returning: true)
      return read
    }

    private func pump() async {
      do throws(TransportFailure) {
        while let chunk = try await stream.next() {
          guard await enqueue(chunk) else { return }
        }
        end(with: nil)
      } catch {
        end(with: error)
      }
    }

    /// Queues `chunk`, waiting while the queue is full; `false` once the pump was stopped.
    private func enqueue(_ chunk: Data) async -> Bool {
      await withCheckedContinuation { continuation in
        let (wakes, goesOn) = state.withLock { state -> (Bool, Bool?) in
          guard !state.isStopped else { return (false, false) }
          state.queue.append(chunk)
          let wakes = state.isConsumerWaiting
          state.isConsumerWaiting = false
          guard state.queue.byteCount >= capacity else { return (wakes, true) }
          state.producer = continuation
          return (wakes, nil)
        }
        if wakes { wake() }
        if let goesOn { continuation.resume(returning: goesOn) }
      }
    }

    private func end(with failure: TransportFailure?) {
      let wakes = state.withLock { state -> Bool in
        state.isEnded = true
        state.failure = failure
        defer { state.isConsumerWaiting = false }
        return state.isConsumerWaiting
      }
      if wakes { wake() }
    }
  }
#endif
