import ConvoyTestSupport
import Testing

@testable import Convoy

/// The version Convoy reports (in `User-Agent`) is the newest one CHANGELOG.md names, so a
/// release cannot leave it behind.
@Suite struct ConvoyVersionTests {
  @Test func theVersionIsTheChangelogsNewest() throws {
    let newest = try #require(try Changelog.newestVersion())
    #expect(ConvoyVersion.current == newest)
  }
}
