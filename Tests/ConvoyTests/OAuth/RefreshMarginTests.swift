import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A server's choice of token lifetime never turns normal use into renewals on every call or
/// into `refreshLimitExceeded`.
@Suite(.timeLimit(.minutes(3))) struct RefreshMarginTests {
  @Test func aShortLivedTokenIsNotRenewedBeforeEveryCall() async throws {
    let server = TokenServer()
    // The first call's 401 brings a 3-second token; the default margin is 60 seconds, so a
    // margin that were not capped at half the lifetime would renew before every call. The
    // connection's test clock stands still, so however slowly the calls run, none is due.
    server.issuedLifetime = 3
    let connection = try server.connection(token: "token-0")
    for _ in 0..<10 {
      #expect(try await connection.execute(Me()).value == ["me": "alice"])
    }
    #expect(server.refreshCalls == 1)
  }

  @Test func shortLivedTokensNeverHitTheRenewalLimit() async throws {
    let server = TokenServer()
    server.issuedLifetime = 0.3
    let connection = try server.connection(token: "token-0")
    for _ in 0..<8 {
      #expect(try await connection.execute(Me()).value == ["me": "alice"])
      server.clock.advance(by: 0.2)
    }
    #expect(server.refreshCalls > 1)
  }

  @Test func theMarginIsAtMostHalfTheTokensLifetime() {
    let issued = Date(timeIntervalSince1970: 1_000)
    let token = AccessToken(
      value: "t", expiresAt: issued.addingTimeInterval(10), issuedAt: issued)
    #expect(!token.expires(within: 60, of: issued.addingTimeInterval(4)))
    #expect(token.expires(within: 60, of: issued.addingTimeInterval(5)))
    #expect(token.expires(within: 2, of: issued.addingTimeInterval(8)))
    #expect(!token.expires(within: 2, of: issued.addingTimeInterval(7)))
  }
}
