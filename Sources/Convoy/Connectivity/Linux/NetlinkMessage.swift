/// One message of the kernel's routing socket (`NETLINK_ROUTE`), reduced to what
/// ``NetlinkRoutingTable`` needs to tell whether a route off the machine exists.
///
/// Read by ``NetlinkParser`` from the bytes of `linux/netlink.h` and `linux/rtnetlink.h`; the
/// layouts are the kernel's ABI, the same on every architecture (host byte order).
enum NetlinkMessage: Sendable, Hashable {
  /// `RTM_NEWLINK`: an interface appeared or changed.
  case link(NetlinkLink)
  /// `RTM_DELLINK`: the interface with this index is gone.
  case linkRemoved(index: Int32)
  /// `RTM_NEWROUTE`: a route was added (or is listed by a dump).
  case route(NetlinkRoute)
  /// `RTM_DELROUTE`: a route was removed.
  case routeRemoved(NetlinkRoute)
  /// `NLMSG_DONE`: the end of the dump with this sequence number.
  case done(sequence: UInt32)
  /// `NLMSG_ERROR`: the kernel refused the request with this sequence number; `code` is a
  /// negative `errno`, or 0 for an acknowledgement.
  case error(sequence: UInt32, code: Int32)
  /// The kernel dropped messages, or a dump changed while it was read
  /// (`NLMSG_OVERRUN`, `NLM_F_DUMP_INTR`): what is known may be stale.
  case lostTrack
  /// Anything else (address changes, neighbours, `NLMSG_NOOP`): nothing to do.
  case ignored
}

/// An interface as `RTM_NEWLINK` describes it (`struct ifinfomsg`).
struct NetlinkLink: Sendable, Hashable {
  /// The interface index routes refer to.
  var index: Int32
  /// `IFF_*` flags.
  var flags: UInt32

  /// `IFF_UP`: switched on by an administrator.
  static let up: UInt32 = 0x1
  /// `IFF_LOOPBACK`.
  static let loopback: UInt32 = 0x8
  /// `IFF_RUNNING`: operationally up (RFC 2863 "up").
  static let running: UInt32 = 0x40
  /// `IFF_LOWER_UP`: the driver sees a carrier (a cable, an associated Wi-Fi, a veth peer up).
  static let lowerUp: UInt32 = 0x10000

  /// Whether packets can leave through it: not loopback, switched on, with a carrier.
  var carriesTraffic: Bool {
    flags & Self.loopback == 0 && flags & Self.up != 0
      && flags & (Self.lowerUp | Self.running) != 0
  }
}

/// A route as `RTM_NEWROUTE` describes it (`struct rtmsg` and its attributes); every field
/// counts in its identity, so that the `RTM_DELROUTE` of a route removes that route.
struct NetlinkRoute: Sendable, Hashable {
  /// `AF_INET` (2) or `AF_INET6` (10).
  var family: UInt8
  /// The destination's prefix length; 0 for a default route.
  var destinationLength: UInt8
  /// The destination's address bytes (`RTA_DST`); empty for a default route.
  var destination: [UInt8]
  /// The routing table (`RTA_TABLE`, or the header's 8-bit field).
  var table: UInt32
  /// `RTN_*`: unicast, local, broadcast, unreachable…
  var type: UInt8
  /// `RTA_PRIORITY`, the metric.
  var priority: UInt32
  /// The header's type of service.
  var typeOfService: UInt8
  /// The interfaces it leaves through: `RTA_OIF`, or each next hop of `RTA_MULTIPATH`.
  var interfaces: [Int32]

  static let inet: UInt8 = 2
  static let inet6: UInt8 = 10
  /// `RTN_UNICAST`: a route to real destinations through a gateway or a link.
  static let unicast: UInt8 = 1
  /// `RT_TABLE_LOCAL`: the machine's own and broadcast addresses.
  static let localTable: UInt32 = 255

  /// Whether the route leads off the machine: a unicast route outside the local table, other
  /// than the link-local ones (`fe80::/10`, `169.254.0.0/16`) the kernel or a DHCP client adds
  /// to every interface that comes up, whether or not a network lies behind it.
  var leadsOffTheMachine: Bool {
    guard type == Self.unicast, table != Self.localTable else { return false }
    if family == Self.inet6, destinationLength >= 10, destination.count >= 2,
      destination[0] == 0xfe, destination[1] & 0xc0 == 0x80
    {
      return false
    }
    if family == Self.inet, destinationLength >= 16, destination.count >= 2,
      destination[0] == 169, destination[1] == 254
    {
      return false
    }
    return true
  }
}
