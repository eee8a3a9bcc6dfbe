import Convoy

/// A `ConnectivityMonitor` the test switches: the network goes away and comes back when the
/// test says so, never because of the machine the test runs on.
///
/// ```swift
/// let network = SimulatedConnectivity(.offline)
/// let connection = ServerConnection(
///   configuration: .local(port: 8080), transport: StubTransport { _ in .json([:]) },
///   connectivityMonitor: network)
/// network.goOnline()
/// ```
public final class SimulatedConnectivity: ConnectivityMonitor {
  private let broadcast: Broadcast<Connectivity>

  /// A monitor that starts in `state`: online unless told otherwise.
  public init(_ state: Connectivity = .online) {
    broadcast = Broadcast(state)
  }

  /// The state the test last set.
  public var connectivity: Connectivity { broadcast.current }

  /// The current state, then every change the test makes.
  public func updates() -> AsyncStream<Connectivity> {
    broadcast.subscribe()
  }

  /// The network goes away: waiting calls wait, and connect failures count as offline.
  public func goOffline() {
    set(.offline)
  }

  /// The network returns: waiting calls and offline retries go at once.
  public func goOnline() {
    set(.online)
  }

  /// Sets `state`; nothing is reported when it does not change.
  public func set(_ state: Connectivity) {
    broadcast.publishChange(state)
  }
}
