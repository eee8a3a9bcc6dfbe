import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct NetlinkRoutingTableTests {
  private static let ethernet = NetlinkLink(index: 2, flags: NetlinkBytes.up)
  private static let loopback = NetlinkLink(
    index: 1, flags: NetlinkBytes.up | NetlinkLink.loopback)

  private static func route(
    through interface: Int32, family: UInt8 = 2, destination: [UInt8] = [],
    length: UInt8 = 0, table: UInt32 = 254, type: UInt8 = 1
  ) -> NetlinkRoute {
    NetlinkRoute(
      family: family, destinationLength: length, destination: destination, table: table,
      type: type, priority: 0, typeOfService: 0, interfaces: [interface])
  }

  private static func table(_ messages: [NetlinkMessage]) -> NetlinkRoutingTable {
    var table = NetlinkRoutingTable()
    for message in messages { table.apply(message) }
    return table
  }

  @Test func aDefaultRouteThroughAnInterfaceWithACarrierIsOnline() {
    let table = Self.table([.link(Self.ethernet), .route(Self.route(through: 2))])
    #expect(table.connectivity == .online)
  }

  @Test func aRouteThroughAnInterfaceThatIsDownOrWithoutCarrierIsOffline() {
    for flags in [NetlinkLink.running | NetlinkLink.lowerUp, NetlinkLink.up] {
      let table = Self.table([
        .link(NetlinkLink(index: 2, flags: flags)), .route(Self.route(through: 2)),
      ])
      #expect(table.connectivity == .offline)
    }
  }

  @Test func loopbackLocalAndLinkLocalRoutesDoNotCount() {
    let table = Self.table([
      .link(Self.loopback), .link(Self.ethernet),
      .route(Self.route(through: 1, destination: [127, 0, 0, 0], length: 8)),
      .route(Self.route(through: 2, destination: [192, 0, 2, 2], length: 32, table: 255)),
      .route(Self.route(through: 2, type: 3)),
      .route(
        Self.route(
          through: 2, family: 10, destination: [0xfe, 0x80] + .init(repeating: 0, count: 14),
          length: 64)),
      .route(Self.route(through: 2, destination: [169, 254, 0, 0], length: 16)),
    ])
    #expect(table.connectivity == .offline)
  }

  @Test func aLoopbackRangePrefixRoutedThroughARealInterfaceCounts() {
    // What the namespace test does: the interface is judged, not the address behind it.
    let table = Self.table([
      .link(Self.ethernet),
      .route(Self.route(through: 2, destination: [127, 1, 0, 0], length: 24)),
    ])
    #expect(table.connectivity == .online)
  }

  @Test func removingTheRouteOrTheLinkGoesOffline() {
    let route = Self.route(through: 2)
    var table = Self.table([.link(Self.ethernet), .route(route)])
    table.apply(.routeRemoved(route))
    #expect(table.connectivity == .offline)
    table.apply(.route(route))
    #expect(table.connectivity == .online)
    table.apply(.linkRemoved(index: 2))
    #expect(table.connectivity == .offline)
  }

  @Test func aLinkGoingDownAndUpFlipsTheState() {
    var table = Self.table([.link(Self.ethernet), .route(Self.route(through: 2))])
    table.apply(.link(NetlinkLink(index: 2, flags: 0)))
    #expect(table.connectivity == .offline)
    table.apply(.link(Self.ethernet))
    #expect(table.connectivity == .online)
  }
}
