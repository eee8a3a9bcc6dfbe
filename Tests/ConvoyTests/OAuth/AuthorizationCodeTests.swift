import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A browser that approves (or not) as a person would, talking to the stub server.
private struct ScriptedBrowser: AuthorizationUserAgent {
  enum Behaviour { case approve, deny, forgeState }
  let server: AuthorizationServerStub
  let behaviour: Behaviour
  let seen = Locked<URL?>(nil)
  var redirectURI: URL { URL(string: "http://127.0.0.1:49152/callback")! }

  func authorize(at url: URL) async throws -> URL {
    seen.withLock { $0 = url }
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let value = { (name: String) in query.first { $0.name == name }?.value ?? "" }
    var back = URLComponents(string: value("redirect_uri"))!
    switch behaviour {
    case .approve:
      let code = server.approve(
        challenge: value("code_challenge"), redirectURI: value("redirect_uri"))
      back.queryItems = [
        .init(name: "code", value: code), .init(name: "state", value: value("state")),
      ]
    case .deny:
      back.queryItems = [
        .init(name: "error", value: "access_denied"), .init(name: "state", value: value("state")),
      ]
    case .forgeState:
      let code = server.approve(
        challenge: value("code_challenge"), redirectURI: value("redirect_uri"))
      back.queryItems = [.init(name: "code", value: code), .init(name: "state", value: "forged")]
    }
    return back.url!
  }
}

@Suite struct AuthorizationCodeTests {
  @Test func theCodeIsExchangedWithTheVerifierOfItsChallenge() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    let browser = ScriptedBrowser(server: server, behaviour: .approve)
    try await connection.login(with: .authorizationCode(through: browser))
    #expect(try await connection.execute(MeAtTheAPI()).value == ["me": "ada"])
    let shown = try #require(browser.seen.current)
    let query = try #require(URLComponents(url: shown, resolvingAgainstBaseURL: false)?.queryItems)
    let names = Set(query.map(\.name))
    #expect(
      names == [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
        "code_challenge_method",
      ])
    #expect(query.first { $0.name == "code_challenge_method" }?.value == "S256")
    #expect(shown.absoluteString.hasPrefix("https://id.example.com/authorize?"))
  }

  @Test func aForgedStateIsRefusedBeforeAnyExchange() async throws {
    let server = AuthorizationServerStub()
    let connection = server.connection()
    await #expect {
      try await connection.login(
        with: .authorizationCode(through: ScriptedBrowser(server: server, behaviour: .forgeState)))
    } throws: { error in
      (error as? BrowserLoginError) == .stateMismatch
        && ErrorMessageProvider.category(of: error) == .loginNotConfirmed
    }
    #expect(!server.log.contains("POST /token"))
  }

  @Test func aDeniedConsentIsAnAuthorizationError() async throws {
    let server = AuthorizationServerStub()
    await #expect {
      try await server.connection().login(
        with: .authorizationCode(
          through: ScriptedBrowser(server: server, behaviour: .deny)))
    } throws: { error in
      (error as? AuthorizationError)?.code == .accessDenied
    }
  }

  @Test func eachAttemptHasItsOwnStateAndVerifier() {
    let endpoint = URL(string: "https://id.example.com/authorize")!
    let redirect = URL(string: "http://127.0.0.1:1/callback")!
    let first = AuthorizationCodeAttempt(
      client: AuthorizationServerStub.client, authorizationEndpoint: endpoint, redirectURI: redirect
    )
    let second = AuthorizationCodeAttempt(
      client: AuthorizationServerStub.client, authorizationEndpoint: endpoint, redirectURI: redirect
    )
    #expect(first.state != second.state)
    #expect(first.pkce.verifier != second.pkce.verifier)
    #expect(first.pkce.verifier.count == 43)
    #expect(!String(describing: first.pkce).contains(first.pkce.verifier))
  }

  @Test func pkceMatchesRFC7636AppendixB() {
    let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }
}

@Suite struct LoopbackRedirectListenerTests {
  @Test func receivesTheRedirectOnAnEphemeralLoopbackPort() async throws {
    let opened = Locked<URL?>(nil)
    // The listener's timeout runs on the wall clock: a long one, so that a slow machine (the
    // suite under ThreadSanitizer beside other builds) cannot end the wait before the redirect.
    let listener = try LoopbackRedirectListener(timeout: 600) { url in
      opened.withLock { $0 = url }
    }
    #expect(listener.redirectURI.host == "127.0.0.1")
    #expect((listener.redirectURI.port ?? 0) > 0)
    #expect(listener.redirectURI.path == "/callback")
    let waiting = Task {
      try await listener.authorize(at: URL(string: "https://id.example.com/a")!)
    }
    let base = listener.redirectURI.absoluteString
    // A favicon request first: answered 404, the listener keeps waiting.
    let (_, favicon) = try await URLSession.shared.data(
      from: URL(string: base.replacingOccurrences(of: "/callback", with: "/favicon.ico"))!)
    #expect((favicon as? HTTPURLResponse)?.statusCode == 404)
    let (page, answer) = try await URLSession.shared.data(
      from: URL(string: base + "?code=abc&state=xyz")!)
    #expect((answer as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: page, as: UTF8.self).contains("close this window"))
    let redirect = try await waiting.value
    #expect(redirect.query == "code=abc&state=xyz")
    #expect(opened.current?.absoluteString == "https://id.example.com/a")
  }

  @Test func aBrowserThatNeverComesBackTimesOutWithAClearError() async throws {
    let listener = try LoopbackRedirectListener(timeout: 0.3) { _ in }
    await #expect {
      try await listener.authorize(at: URL(string: "https://id.example.com/a")!)
    } throws: { error in
      (error as? BrowserLoginError) == .timedOut(0.3)
        && ErrorMessageProvider.standard.message(for: error)?.text
          == "The login wasn't completed in time. Please start it again."
    }
  }

  @Test func cancellingTheTaskStopsListening() async throws {
    // The listener opens the browser once it listens: the cancel surely lands mid-wait. A
    // listener that ignored it would end with `timedOut(30)`, which fails the check below.
    let browserOpened = Outcome<Bool>()
    let listener = try LoopbackRedirectListener(timeout: 30) { _ in browserOpened.record(true) }
    let waiting = Task {
      try await listener.authorize(at: URL(string: "https://id.example.com/a")!)
    }
    #expect(await browserOpened.first() == true)
    waiting.cancel()
    await #expect {
      try await waiting.value
    } throws: { error in
      error.isCancellation
    }
  }
}
