import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Renewals are calls like any other: observers see them, redacted the same way.
@Suite struct RenewalEventsTests {
  private static func recorder() -> (Locked<[ConvoyEvent]>, AnyEventObserver) {
    let events = Locked<[ConvoyEvent]>([])
    return (events, AnyEventObserver { event in events.withLock { $0.append(event) } })
  }

  private static func tokenEndpointEvents(_ events: [ConvoyEvent]) -> [ConvoyEvent.Name] {
    events.filter { $0.url?.hasSuffix("/oauth/token") == true }.map(\.name)
  }

  @Test func aRenewalsRequestAndAnswerReachTheObservers() async throws {
    let (events, observer) = Self.recorder()
    let server = TokenServer()
    let connection = try server.connection(token: "token-0", observers: [observer])
    _ = try await connection.execute(Me())
    let renewal = Self.tokenEndpointEvents(events.current)
    #expect(renewal.first == .requestCreated)
    #expect(renewal.contains(.requestSent))
    #expect(renewal.contains(.responseReceived))
    #expect(renewal.last == .requestFinished)
  }

  @Test func aRefusedRenewalReachesTheObserversAsAFailedCall() async throws {
    let (events, observer) = Self.recorder()
    let server = TokenServer()
    server.refreshBehaviour = .refuse(status: 400)
    let connection = try server.connection(token: "token-0", observers: [observer])
    _ = try? await connection.execute(Me())
    let failed = events.current.first {
      $0.name == .requestFailed && $0.url?.hasSuffix("/oauth/token") == true
    }
    #expect(failed?.status == 400)
  }

  @Test func renewalEventsCarryNoSecret() async throws {
    let (events, observer) = Self.recorder()
    let server = TokenServer()
    let connection = try server.connection(
      token: "token-0",
      authentication: AuthenticationConfiguration(
        client: OAuthClient(
          id: "app", secret: "client-s3cret", authenticationMethod: .clientSecretBasic,
          endpoints: OAuthEndpoints(token: "oauth/token"))),
      observers: [observer])
    _ = try await connection.execute(Me())
    #expect(!Self.tokenEndpointEvents(events.current).isEmpty)
    for event in events.current {
      let text = String(describing: event)
      for secret in ["refresh-r1", "client-s3cret", "token-2", "YXBwOmNsaWVudC1zM2NyZXQ="] {
        #expect(!text.contains(secret))
      }
    }
  }
}
