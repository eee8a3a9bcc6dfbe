import Foundation

/// Counts a connection's calls in flight, for an activity indicator.
///
/// It counts ``ConvoyEvent/Name/requestCreated`` up and every event that ends a call down, so it
/// is right under cancellation as long as every call ends with exactly one such event, which
/// Convoy guarantees. It never goes below zero.
public final class NetworkActivityCounter: EventObserver {
  private struct State {
    var count = 0
    var inFlight: Set<UInt64> = []
    var observers: [UUID: AsyncStream<Int>.Continuation] = [:]
  }

  private let state = Locked(State())

  /// Creates a counter at zero.
  public init() {}

  /// The number of calls in flight.
  public var count: Int { state.withLock { $0.count } }

  /// Whether any call is in flight.
  public var isActive: Bool { count > 0 }

  /// Every change of the count, starting with the current one; a new stream per call.
  public func counts() -> AsyncStream<Int> {
    let id = UUID()
    let (stream, continuation) = AsyncStream.makeStream(
      of: Int.self, bufferingPolicy: .bufferingNewest(64))
    let current = state.withLock { state in
      state.observers[id] = continuation
      return state.count
    }
    continuation.yield(current)
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Counts calls starting and ending.
  public func receive(_ event: ConvoyEvent) {
    guard let id = event.requestID, event.name == .requestCreated || event.endsRequest else {
      return
    }
    let (changed, count, observers) = state.withLock { state in
      // Tracking ids makes a repeated or unmatched end harmless instead of driving the count down.
      let changed =
        event.name == .requestCreated
        ? state.inFlight.insert(id).inserted : state.inFlight.remove(id) != nil
      state.count = state.inFlight.count
      return (changed, state.count, Array(state.observers.values))
    }
    guard changed else { return }
    for observer in observers { observer.yield(count) }
  }
}
