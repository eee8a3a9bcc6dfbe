import Foundation

/// Receives every ``ConvoyEvent`` of a connection's calls and jobs.
///
/// Called synchronously on the thread where the event happened, in order for any one call:
/// keep it fast and hand slow work (files, network) to a queue of your own.
public protocol EventObserver: Sendable {
  /// Takes one event.
  func receive(_ event: ConvoyEvent)
}

/// An observer made from a closure.
public struct AnyEventObserver: EventObserver {
  private let body: @Sendable (ConvoyEvent) -> Void

  /// Wraps `body`.
  public init(_ body: @escaping @Sendable (ConvoyEvent) -> Void) {
    self.body = body
  }

  /// Calls the closure.
  public func receive(_ event: ConvoyEvent) {
    body(event)
  }
}

extension Array where Element == any EventObserver {
  /// Hands an event of `kind` to every observer, in order. The event is made only when someone
  /// observes: most connections have no observer, and an event costs its redaction.
  func send(_ kind: @autoclosure () -> ConvoyEvent.Kind, date: @autoclosure () -> Date = Date()) {
    guard !isEmpty else { return }
    let event = ConvoyEvent(kind(), date: date())
    for observer in self { observer.receive(event) }
  }
}
