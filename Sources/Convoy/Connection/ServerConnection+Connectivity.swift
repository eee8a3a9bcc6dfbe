extension ServerConnection {
  /// Whether the network is there, as the connection's ``connectivityMonitor`` reads it: the
  /// current state first, then every change, until the loop that reads it stops.
  ///
  /// Each use is a subscription of its own. A connection without a monitor yields
  /// ``Connectivity/unknown`` once and ends.
  ///
  /// ```swift
  /// for await state in connection.connectivity {
  ///   print(state == .offline ? "Offline: changes wait for the network" : "Online")
  /// }
  /// ```
  public var connectivity: AsyncStream<Connectivity> {
    guard let connectivityMonitor else {
      return AsyncStream { continuation in
        continuation.yield(.unknown)
        continuation.finish()
      }
    }
    return connectivityMonitor.updates()
  }

  /// A task that tells `observers` of every state of `monitor` (`connectivity.changed`), or
  /// `nil` when nobody observes.
  static func reportConnectivity(
    of monitor: any ConnectivityMonitor, to observers: [any EventObserver]
  ) -> Task<Void, Never>? {
    guard !observers.isEmpty else { return nil }
    return Task {
      for await state in monitor.updates() {
        observers.send(.connectivityChanged(.init(connectivity: state)))
      }
    }
  }
}
