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

  /// The events of the calls made to the token endpoint.
  private static func tokenEndpointEvents(_ events: [ConvoyEvent]) -> [ConvoyEvent] {
    let renewals = Set(
      events.compactMap { event -> UInt64? in
        guard case .requestCreated(let created) = event.kind,
          created.url?.hasSuffix("/oauth/token") == true
        else { return nil }
        return created.call.id
      })
    return events.filter { $0.call.map { renewals.contains($0.id) } ?? false }
  }

  @Test func aRenewalsRequestAndAnswerReachTheObservers() async throws {
    let (events, observer) = Self.recorder()
    let server = TokenServer()
    let connection = try server.connection(token: "token-0", observers: [observer])
    _ = try await connection.execute(Me())
    let renewal = Self.tokenEndpointEvents(events.current).map(\.name)
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
    let failures = Self.tokenEndpointEvents(events.current).compactMap { event in
      if case .requestFailed(let failure) = event.kind { failure } else { nil }
    }
    #expect(failures.first?.status == 400)
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
