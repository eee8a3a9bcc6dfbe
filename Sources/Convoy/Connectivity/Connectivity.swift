/// Whether a route to the network exists, as a ``ConnectivityMonitor`` last read it.
///
/// Reachability of one server is a different question, answered only by sending it a request: a
/// device can be ``online`` and the server down, or behind a captive portal. This value only
/// says whether sending anything off the device is worth trying, which is what a call that
/// waits for connectivity and a retry after an offline failure need to know.
///
/// ```swift
/// for await state in connection.connectivity where state == .offline {
///   print("Offline: changes will be sent when the network returns")
/// }
/// ```
public enum Connectivity: String, Sendable, Hashable, CaseIterable {
  /// The monitor has not read the system yet, or the connection has no monitor. Nothing waits
  /// on this state: a call is sent and its own failure, if any, says what happened.
  case unknown
  /// A route off the device exists (see each monitor for what counts on its platform).
  case online
  /// No route off the device exists: every request would fail before reaching a server.
  case offline

  /// Whether a call that waits for connectivity must wait in this state: only when the monitor
  /// knows there is no route, never while it does not know.
  public var blocksCalls: Bool { self == .offline }
}
