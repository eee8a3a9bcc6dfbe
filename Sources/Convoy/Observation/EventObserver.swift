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
