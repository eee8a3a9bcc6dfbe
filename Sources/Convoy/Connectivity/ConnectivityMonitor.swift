/// A source of ``Connectivity``: tells whether a route to the network exists, and when that
/// changes.
///
/// A ``ServerConnection`` holds one (``PlatformConnectivity/shared`` by default with the
/// platform transport) to let calls wait for the network instead of failing, to retry an
/// offline failure as soon as the network returns, and to give apps
/// ``ServerConnection/connectivity``. ConvoyTesting's `SimulatedConnectivity` is one a test
/// switches itself, so tests never depend on the machine's network.
///
/// A monitor of one's own (a VPN's state, say) needs only these two members:
///
/// ```swift
/// final class AlwaysOnline: ConnectivityMonitor {
///   var connectivity: Connectivity { .online }
///   func updates() -> AsyncStream<Connectivity> {
///     AsyncStream { continuation in continuation.yield(.online) }
///   }
/// }
/// ```
public protocol ConnectivityMonitor: Sendable {
  /// The state now, read without waiting: ``Connectivity/unknown`` until the first reading.
  var connectivity: Connectivity { get }

  /// The current state first, then every change, in order, until the consumer stops iterating.
  ///
  /// Each call is a subscription of its own; a state is never repeated twice in a row.
  func updates() -> AsyncStream<Connectivity>
}

extension ConnectivityMonitor {
  /// Returns `true` once the monitor no longer says offline (at once when it does not now);
  /// `false` when its updates ended first: the waiting task was cancelled, or the monitor
  /// stopped.
  package func waitUntilOnline() async -> Bool {
    for await state in updates() where !state.blocksCalls { return true }
    return false
  }
}
