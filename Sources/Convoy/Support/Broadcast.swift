import Foundation

/// Hands a changing value to any number of `AsyncStream` subscribers, each starting with the
/// current value.
///
/// Subscribing and publishing share one lock, so a subscriber sees the current value and then
/// every later one, in order, never a stale value after a newer one.
package final class Broadcast<Value: Sendable>: Sendable {
  fileprivate struct State {
    var current: Value
    var subscribers: [UUID: AsyncStream<Value>.Continuation] = [:]
  }

  fileprivate let state: Locked<State>
  private let bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy

  package init(
    _ initial: Value,
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(64)
  ) {
    state = Locked(State(current: initial))
    self.bufferingPolicy = bufferingPolicy
  }

  /// The value last published.
  package var current: Value { state.withLock { $0.current } }

  /// A new stream of the current value and every later one; it ends when its consumer stops.
  package func subscribe() -> AsyncStream<Value> {
    let id = UUID()
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    state.withLock { state in
      state.subscribers[id] = continuation
      continuation.yield(state.current)
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Makes `value` current and hands it to every subscriber.
  package func publish(_ value: Value) {
    // Yielding never blocks, so it is safe under the lock, and it keeps values in order.
    state.withLock { state in
      state.current = value
      for subscriber in state.subscribers.values { subscriber.yield(value) }
    }
  }
}

extension Broadcast where Value: Equatable {
  /// Publishes `value` unless it is already current: subscribers see changes only.
  package func publishChange(_ value: Value) {
    state.withLock { state in
      guard state.current != value else { return }
      state.current = value
      for subscriber in state.subscribers.values { subscriber.yield(value) }
    }
  }
}
