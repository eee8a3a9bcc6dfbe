import Foundation

/// The received messages waiting for their reader.
///
/// The session stops decoding once `capacity` messages wait (``isFull``), and the WebSocket
/// stops reading from the network, so a slow reader slows the server down (TCP flow control)
/// instead of memory growing; `onRoom` tells the session when the reader made room again.
final class WebSocketInbox: @unchecked Sendable {
  private let lock = Lock()
  private let capacity: Int
  private var messages: [WebSocketMessage] = []
  private var first = 0
  private var end: Result<Void, any Error>?
  private var reader: CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>?
  /// Set when ``isFull`` answered `true`: the next message taken calls `onRoom`.
  private var awaitsRoom = false
  private let onRoom: @Sendable () -> Void

  init(capacity: Int, onRoom: @escaping @Sendable () -> Void) {
    self.capacity = capacity
    self.onRoom = onRoom
  }

  /// Whether `capacity` messages wait: the session holds the next back until `onRoom`.
  var isFull: Bool {
    lock.withLock {
      let full = messages.count - first >= capacity
      if full { awaitsRoom = true }
      return full
    }
  }

  /// Adds `message`, to a waiting reader at once; dropped once the inbox has ended.
  func put(_ message: WebSocketMessage) {
    let waiting = lock.withLock { () -> Reader? in
      guard end == nil else { return nil }
      guard let reader else {
        messages.append(message)
        return nil
      }
      self.reader = nil
      return Reader(continuation: reader)
    }
    waiting?.continuation.resume(returning: .success(message))
  }

  /// A waiting reader, named so that the lock's closure returns a plain type.
  private struct Reader {
    let continuation: CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>
  }

  /// Ends the inbox: the reader gets what waits, then `nil`, or `result`'s error.
  func finish(_ result: Result<Void, any Error>) {
    let reader = lock.withLock {
      () -> CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>? in
      guard end == nil else { return nil }
      end = result
      defer { self.reader = nil }
      return self.reader
    }
    guard let reader else { return }
    switch result {
    case .success: reader.resume(returning: .success(nil))
    case .failure(let error): reader.resume(returning: .failure(error))
    }
  }

  /// Whether a reader waits in ``next()``.
  var hasWaitingReader: Bool { lock.withLock { reader != nil } }

  /// The next message, `nil` once the WebSocket closed normally. One reader at a time.
  func next() async throws -> WebSocketMessage? {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>) in
      let (ready, madeRoom) = lock.withLock { () -> (Result<WebSocketMessage?, any Error>?, Bool) in
        if first < messages.count {
          let message = messages[first]
          first += 1
          if first == messages.count {
            messages.removeAll(keepingCapacity: true)
            first = 0
          }
          let madeRoom = awaitsRoom && messages.count - first < capacity
          if madeRoom { awaitsRoom = false }
          return (.success(message), madeRoom)
        }
        switch end {
        case .success: return (.success(nil), false)
        case .failure(let error): return (.failure(error), false)
        case nil:
          reader = continuation
          return (nil, false)
        }
      }
      if madeRoom { onRoom() }
      if let ready { continuation.resume(returning: ready) }
    }
    return try result.get()
  }
}
