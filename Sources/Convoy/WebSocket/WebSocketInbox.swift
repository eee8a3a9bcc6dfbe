import Foundation

/// The received messages waiting for their reader: at most `capacity`, after which the
/// WebSocket's read loop waits in ``put(_:)``, so a slow reader slows the server down (TCP flow
/// control) instead of memory growing.
final class WebSocketInbox: @unchecked Sendable {
  private let lock = Lock()
  private let capacity: Int
  private var messages: [WebSocketMessage] = []
  private var end: Result<Void, any Error>?
  private var reader: CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>?
  private var writer: CheckedContinuation<Void, Never>?

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Adds `message` once there is room for it (at once to a waiting reader); returns at once
  /// once the inbox has ended.
  func put(_ message: WebSocketMessage) async {
    while true {
      let step = lock.withLock { () -> PutStep in
        guard end == nil else { return .done }
        if let reader {
          self.reader = nil
          return .hand(reader)
        }
        guard messages.count >= capacity else {
          messages.append(message)
          return .done
        }
        return .wait
      }
      switch step {
      case .done:
        return
      case .hand(let reader):
        return reader.resume(returning: .success(message))
      case .wait:
        await withCheckedContinuation { continuation in
          let waits = lock.withLock {
            guard end == nil, reader == nil, messages.count >= capacity else { return false }
            writer = continuation
            return true
          }
          if !waits { continuation.resume() }
        }
      }
    }
  }

  private enum PutStep {
    case done
    case hand(CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>)
    case wait
  }

  /// Whether a message waits in ``put(_:)`` for room: the read loop is holding the network back.
  var hasWaitingWriter: Bool { lock.withLock { writer != nil } }

  /// Ends the inbox: the reader gets what waits, then `nil`, or `result`'s error.
  func finish(_ result: Result<Void, any Error>) {
    let (reader, writer) = lock.withLock {
      () -> (
        CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>?,
        CheckedContinuation<Void, Never>?
      ) in
      guard end == nil else { return (nil, nil) }
      end = result
      defer { (self.reader, self.writer) = (nil, nil) }
      return (self.reader, self.writer)
    }
    writer?.resume()
    guard let reader else { return }
    switch result {
    case .success: reader.resume(returning: .success(nil))
    case .failure(let error): reader.resume(returning: .failure(error))
    }
  }

  /// The next message, `nil` once the WebSocket closed normally. One reader at a time.
  func next() async throws -> WebSocketMessage? {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<WebSocketMessage?, any Error>, Never>) in
      let (ready, writer) = lock.withLock {
        () -> (Result<WebSocketMessage?, any Error>?, CheckedContinuation<Void, Never>?) in
        if !messages.isEmpty {
          let message = messages.removeFirst()
          guard messages.count < capacity, let writer = self.writer else {
            return (.success(message), nil)
          }
          self.writer = nil
          return (.success(message), writer)
        }
        switch end {
        case .success: return (.success(nil), nil)
        case .failure(let error): return (.failure(error), nil)
        case nil:
          reader = continuation
          return (nil, nil)
        }
      }
      writer?.resume()
      if let ready { continuation.resume(returning: ready) }
    }
    return try result.get()
  }
}
