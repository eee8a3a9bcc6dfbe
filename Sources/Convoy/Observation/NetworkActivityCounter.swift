import Foundation

/// Counts a connection's calls in flight, for an activity indicator.
///
/// It counts ``ConvoyEvent/Kind/requestCreated(_:)`` up and every event that ends a call down, so it
/// is right under cancellation as long as every call ends with exactly one such event, which
/// Convoy guarantees. It never goes below zero.
public final class NetworkActivityCounter: EventObserver {
  private let inFlight = Locked<Set<UInt64>>([])
  private let broadcast = Broadcast(0)

  /// Creates a counter at zero.
  public init() {}

  /// The number of calls in flight.
  public var count: Int { broadcast.current }

  /// Whether any call is in flight.
  public var isActive: Bool { count > 0 }

  /// Every change of the count, starting with the current one; a new stream per call.
  public func counts() -> AsyncStream<Int> {
    broadcast.subscribe()
  }

  /// Counts calls starting and ending.
  public func receive(_ event: ConvoyEvent) {
    let isStart = event.name == .requestCreated
    guard let id = event.call?.id, isStart || event.endsRequest else { return }
    inFlight.withLock { calls in
      // Tracking ids makes a repeated or unmatched end harmless instead of driving the count down.
      let changed = isStart ? calls.insert(id).inserted : calls.remove(id) != nil
      if changed { broadcast.publish(calls.count) }
    }
  }
}
