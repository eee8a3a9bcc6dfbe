#if os(Linux)
  import Foundation

  /// Feeds a streamed request body to libcurl's read callback without ever blocking the loop
  /// thread.
  ///
  /// A task reads the body ahead into a queue of at most `capacity` bytes, and waits while it is
  /// full: a slow server slows the body's source down. A full queue lets the task go on only once
  /// libcurl has taken it down to half, so the task refills several chunks per wake-up rather
  /// than one per chunk taken (with 64 KiB chunks that was about a thread switch per chunk, and
  /// the 1 GiB uploads of `convoy-benchmarks uploads` ran 10–20 % slower). The read callback, on
  /// the loop thread, copies from the queue; when it is empty the callback pauses the sending
  /// side, and the pump asks the loop (`wake`) to lift the pause once the next chunk is in.
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
      var chunks: [Data] = []
      var head = 0
      /// Bytes of `chunks[head]` already handed to libcurl.
      var offset = 0
      var queuedBytes = 0
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
        guard state.head < state.chunks.count else {
          if state.isEnded { return .end }
          state.isConsumerWaiting = true
          return .pause
        }
        var copied = 0
        while copied < buffer.count, state.head < state.chunks.count {
          let chunk = state.chunks[state.head]
          let count = min(buffer.count - copied, chunk.count - state.offset)
          chunk.withUnsafeBytes { bytes in
            let start = bytes.baseAddress!.advanced(by: state.offset)
            (buffer.baseAddress! + copied).copyMemory(from: start, byteCount: count)
          }
          copied += count
          state.offset += count
          state.queuedBytes -= count
          if state.offset == chunk.count {
            // Let go of a chunk once it is sent: a queue the producer keeps topped up never
            // empties, and its array would otherwise hold every chunk of the body.
            state.chunks[state.head] = Data()
            state.head += 1
            state.offset = 0
          }
        }
        if state.head == state.chunks.count {
          state.chunks.removeAll(keepingCapacity: true)
          state.head = 0
        } else if state.head * 2 >= state.chunks.count {
          // No more chunks move than were taken since the last time: amortized constant.
          state.chunks.removeFirst(state.head)
          state.head = 0
        }
        if state.queuedBytes <= capacity / 2 {
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
          state.chunks.append(chunk)
          state.queuedBytes += chunk.count
          let wakes = state.isConsumerWaiting
          state.isConsumerWaiting = false
          guard state.queuedBytes >= capacity else { return (wakes, true) }
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
