/// The links and routes a ``NetlinkConnectivityMonitor`` knows, kept from one dump and the
/// notifications after it, and what they say about ``Connectivity``.
///
/// Online means: some route leads off the machine (``NetlinkRoute/leadsOffTheMachine``: a
/// unicast route outside the local table, not a link-local one) through an interface that
/// carries traffic (``NetlinkLink/carriesTraffic``: not loopback, up, with a carrier). An
/// address alone is not enough (nothing can be sent without a route), nor is a route through an
/// interface without a carrier (an unplugged cable keeps its static routes). The addresses
/// themselves are not judged: whoever routes a prefix through a real interface means it.
struct NetlinkRoutingTable: Sendable, Hashable {
  private(set) var links: [Int32: NetlinkLink] = [:]
  private(set) var routes: Set<NetlinkRoute> = []

  /// Takes in one message; those about the dump itself change nothing here.
  mutating func apply(_ message: NetlinkMessage) {
    switch message {
    case .link(let link): links[link.index] = link
    case .linkRemoved(let index): links[index] = nil
    case .route(let route): routes.insert(route)
    case .routeRemoved(let route): routes.remove(route)
    case .done, .error, .lostTrack, .ignored: break
    }
  }

  /// Whether a route off the machine exists through an interface that carries traffic.
  var connectivity: Connectivity {
    let isOnline = routes.contains { route in
      route.leadsOffTheMachine
        && route.interfaces.contains { links[$0]?.carriesTraffic ?? false }
    }
    return isOnline ? .online : .offline
  }
}
