#if canImport(Network)
  import Dispatch
  import Network

  /// The system's connectivity on Apple platforms, from `NWPathMonitor`.
  ///
  /// ``Connectivity/online`` when the path's status is `.satisfied` (the system has a route over
  /// some interface, Wi-Fi, cellular, wired or a VPN); ``Connectivity/offline`` for
  /// `.unsatisfied` and for `.requiresConnection` (a route exists only once something, such as
  /// a VPN on demand, is brought up: until then a request would not leave the device). The path
  /// monitor runs from creation until the monitor is released. Unchecked `Sendable`: its only
  /// state is `NWPathMonitor`, which Apple documents as safe to use from any thread.
  final class PathConnectivityMonitor: ConnectivityMonitor, @unchecked Sendable {
    private let monitor = NWPathMonitor()
    private let broadcast = Broadcast(Connectivity.unknown)

    /// Starts reading the system's path on a queue of its own.
    init() {
      let broadcast = broadcast
      monitor.pathUpdateHandler = { path in
        let state: Connectivity = path.status == .satisfied ? .online : .offline
        broadcast.publishChange(state)
      }
      monitor.start(queue: DispatchQueue(label: "Convoy.PathConnectivityMonitor"))
    }

    deinit {
      monitor.cancel()
    }

    /// The state of the last path the system reported.
    var connectivity: Connectivity { broadcast.current }

    /// The current state, then each change of the path's status.
    func updates() -> AsyncStream<Connectivity> {
      broadcast.subscribe()
    }
  }
#endif
