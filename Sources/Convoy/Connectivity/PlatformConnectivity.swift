/// The monitor of the system's own network, the one a ``ServerConnection`` on the platform
/// transport uses unless told otherwise.
///
/// On Linux a monitor that listens to the kernel's routing and link notifications (netlink); on
/// Apple platforms one over `NWPathMonitor`. One for the process, started on first use: every
/// connection shares its one socket or path monitor.
public enum PlatformConnectivity {
  /// The process's monitor of the system's network; ``Connectivity/unknown`` for good where the
  /// system offers no way to read it (the netlink socket could not be opened, say).
  public static let shared: any ConnectivityMonitor = makeShared()

  private static func makeShared() -> any ConnectivityMonitor {
    #if canImport(Network)
      return PathConnectivityMonitor()
    #elseif os(Linux)
      if let monitor = NetlinkConnectivityMonitor() { return monitor }
      return FixedConnectivity(.unknown)
    #else
      return FixedConnectivity(.unknown)
    #endif
  }
}

/// A monitor that never changes: for a system with no way to read its network.
struct FixedConnectivity: ConnectivityMonitor {
  let connectivity: Connectivity

  init(_ connectivity: Connectivity) {
    self.connectivity = connectivity
  }

  func updates() -> AsyncStream<Connectivity> {
    AsyncStream { continuation in
      continuation.yield(connectivity)
    }
  }
}
