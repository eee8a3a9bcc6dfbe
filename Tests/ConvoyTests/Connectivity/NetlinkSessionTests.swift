import Testing

@testable import Convoy

@Suite(.timeLimit(.minutes(1))) struct NetlinkSessionTests {
  private static let link = NetlinkMessage.link(NetlinkLink(index: 2, flags: NetlinkBytes.up))
  private static let route = NetlinkMessage.route(
    NetlinkRoute(
      family: 2, destinationLength: 0, destination: [], table: 254, type: 1, priority: 0,
      typeOfService: 0, interfaces: [2]))

  /// A session that read both dumps of a machine with one interface and a default route.
  private static func online() -> NetlinkSession {
    var session = NetlinkSession()
    let links = session.start()
    let (routes, _) = session.receive([link, .done(sequence: links.sequence)])
    _ = session.receive([route, .done(sequence: routes!.sequence)])
    return session
  }

  @Test func readsTheLinksThenTheRoutesAndReportsOnlyThen() throws {
    var session = NetlinkSession()
    let links = session.start()
    #expect(links.type == NetlinkParser.getLink)
    let afterLinks = session.receive([Self.link, .done(sequence: links.sequence)])
    let routes = try #require(afterLinks.request)
    #expect(routes.type == NetlinkParser.getRoute)
    #expect(routes.sequence != links.sequence)
    #expect(afterLinks.connectivity == nil)
    let afterRoutes = session.receive([Self.route, .done(sequence: routes.sequence)])
    #expect(afterRoutes.request == nil)
    #expect(afterRoutes.connectivity == .online)
  }

  @Test func notificationsAfterTheDumpsChangeTheStateAtOnce() {
    var session = Self.online()
    let down = session.receive([.link(NetlinkLink(index: 2, flags: 0))])
    #expect(down.request == nil)
    #expect(down.connectivity == .offline)
  }

  @Test func anUnreadableBufferForgetsTheTableAndReadsItAgain() throws {
    var session = Self.online()
    let garbled = session.receive(nil)
    let links = try #require(garbled.request)
    #expect(links.type == NetlinkParser.getLink)
    // Nothing is reported from a half-read table; the last state stands meanwhile.
    #expect(garbled.connectivity == nil)
    #expect(session.table.routes.isEmpty)
    let routes = try #require(
      session.receive([Self.link, .done(sequence: links.sequence)]).request)
    #expect(
      session.receive([Self.route, .done(sequence: routes.sequence)]).connectivity == .online)
  }

  @Test func lostTrackDuringADumpRestartsOnceThatDumpEnds() throws {
    var session = NetlinkSession()
    let links = session.start()
    // One dump at a time per socket: nothing is asked while the links are still coming.
    #expect(session.receive([.lostTrack]).request == nil)
    #expect(session.lostTrack() == nil)
    let routes = try #require(
      session.receive([Self.link, .done(sequence: links.sequence)]).request)
    let again = try #require(
      session.receive([Self.route, .done(sequence: routes.sequence)]).request)
    #expect(again.type == NetlinkParser.getLink)
  }

  @Test func aRefusedDumpIsAskedForAgainAndOtherAnswersAreIgnored() throws {
    var session = NetlinkSession()
    let links = session.start()
    // Another sequence's end or error is not this dump's.
    #expect(session.receive([.done(sequence: links.sequence + 7)]).request == nil)
    #expect(session.receive([.error(sequence: links.sequence, code: 0)]).request == nil)
    let again = try #require(
      session.receive([.error(sequence: links.sequence, code: -16)]).request)
    #expect(again.type == NetlinkParser.getLink)
    #expect(again.sequence != links.sequence)
  }
}
