import Convoy
import ConvoyTesting
import Foundation

/// The event-stream behaviour only this repository defines, made of `MockServer` routes in the
/// test process: streams that drop after a few events and carry on after `Last-Event-ID`, the
/// same behind a bearer token, and the OAuth2 token endpoint that issues those tokens. What a
/// real server formats (sse-starlette's events and line endings) stays with ``SSEServer``.
///
/// Each test starts its own (``started()``), so its ``requests`` are its own. Routes:
/// - `GET /drop?count&drop_after`: the events after the request's `Last-Event-ID` (from
///   1, the first with `retry: 100`), at most `drop_after` of them (3), then the connection drops
///   without the end of the body; `204` once `Last-Event-ID` reached `count` (10).
/// - `GET /protected?…`: `/drop`, for a bearer token the token endpoint issued and
///   ``expireTokens()`` has not expired; otherwise `401` with `WWW-Authenticate`.
/// - `GET /stop`: always `204`. `GET /not-sse`: `200` JSON.
/// - `POST /oauth/token`: the password grant (any user, ``password``) and the refresh-token
///   grant, each refresh token working once (rotation), for the client of ``authentication``.
final class ScriptedEventServer: Sendable {
  /// The password the password grant accepts, with any user name.
  static let password = "correct horse"
  private static let client = (id: "convoy-tests", secret: "convoy-tests-secret")

  let mock: MockServer
  private let tokens = Locked(Tokens())

  private struct Tokens {
    var access: [String: Bool] = [:]  // token → still valid
    var refresh: Set<String> = []
  }

  private init(mock: MockServer) {
    self.mock = mock
  }

  /// A server of its own on a free loopback port, for one test.
  static func started() async throws -> ScriptedEventServer {
    let server = ScriptedEventServer(mock: try await MockServer.started())
    server.addRoutes()
    return server
  }

  /// Every request the server received, in order.
  var requests: [RecordedRequest] { mock.requests }

  /// The client and token endpoint the server's token endpoint accepts.
  var authentication: AuthenticationConfiguration {
    AuthenticationConfiguration(
      client: OAuthClient(
        id: Self.client.id, secret: Self.client.secret,
        endpoints: OAuthEndpoints(token: "oauth/token")),
      refreshMargin: 0)
  }

  /// A connection to this server with ``authentication``, over `transport`.
  func connection(transport: any HTTPTransport, observers: [any EventObserver] = [])
    -> ServerConnection
  {
    var configuration = ServerConfiguration.local(port: mock.port)
    configuration.authentication = authentication
    return ServerConnection(
      configuration: configuration, transport: transport, observers: observers)
  }

  /// Expires every access token issued so far, as if their time had run out while a stream was
  /// open.
  func expireTokens() {
    tokens.withLock { tokens in
      for token in tokens.access.keys { tokens.access[token] = false }
    }
  }

  /// Shuts the server down.
  func shutdown() async {
    await mock.shutdown()
  }

  private func addRoutes() {
    mock.route(.get, "/drop") { request in Self.droppingStream(for: request) }
    mock.route(.get, "/protected") { [tokens] request in
      let (scheme, token) = Self.credentials(request.headers["Authorization"])
      guard scheme.lowercased() == "bearer", !token.isEmpty else {
        return Self.invalidToken("A bearer token is required.")
      }
      switch tokens.withLock({ $0.access[token] }) {
      case nil: return Self.invalidToken("The access token is unknown.")
      case false?: return Self.invalidToken("The access token expired.")
      case true?: return Self.droppingStream(for: request)
      }
    }
    mock.route(.get, "/stop", answer: .status(204))
    mock.route(.get, "/not-sse", answer: .json(["message": "this is not an event stream"]))
    mock.route(.post, "/oauth/token") { [tokens] request in
      Self.token(for: request, tokens: tokens)
    }
  }

  private static func droppingStream(for request: RecordedRequest) -> MockAnswer {
    let count = request.queryValue("count").flatMap(Int.init) ?? 10
    let dropAfter = max(1, request.queryValue("drop_after").flatMap(Int.init) ?? 3)
    let first = (request.headers["Last-Event-ID"].flatMap(Int.init) ?? 0) + 1
    guard first <= count else { return .status(204) }
    let last = min(first + dropAfter - 1, count)
    // `retry:` rides on the first event: a block of its own with no data would be an event.
    let events = (first...last).map {
      MockEvent(id: String($0), event: "tick", data: "event \($0)", retry: $0 == first ? 100 : nil)
    }
    return .events(events, then: last < count ? .drop : .end)
  }

  private static func invalidToken(_ description: String) -> MockAnswer {
    .json(
      ["error": "invalid_token", "error_description": description], status: 401,
      headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
  }

  private static func tokenError(_ error: String, _ description: String, status: Int = 400)
    -> MockAnswer
  {
    .json(["error": error, "error_description": description], status: status)
  }

  /// RFC 6749 §4.3 and §6, with the client in HTTP Basic or in the form (§2.3.1).
  private static func token(for request: RecordedRequest, tokens: Locked<Tokens>) -> MockAnswer {
    let form = request.formBody
    let (scheme, credentials) = credentials(request.headers["Authorization"])
    var client = (id: form["client_id"] ?? "", secret: form["client_secret"] ?? "")
    if scheme.lowercased() == "basic",
      let pair = Data(base64Encoded: credentials).map({ String(decoding: $0, as: UTF8.self) })
    {
      let parts = pair.split(separator: ":", maxSplits: 1).map {
        String($0).removingPercentEncoding ?? String($0)
      }
      client = (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
    guard client == Self.client else {
      return tokenError("invalid_client", "The client is unknown.", status: 401)
    }
    switch form["grant_type"] {
    case "password":
      guard form["password"] == password else {
        return tokenError("invalid_grant", "The email or password is wrong.")
      }
    case "refresh_token":
      let refresh = form["refresh_token"] ?? ""
      guard tokens.withLock({ $0.refresh.remove(refresh) != nil }) else {
        return tokenError("invalid_grant", "The refresh token is unknown or was used.")
      }
    default:
      return tokenError("unsupported_grant_type", "Only password and refresh_token.")
    }
    let (access, refresh) = (UUID().uuidString, UUID().uuidString)
    tokens.withLock {
      $0.access[access] = true
      $0.refresh.insert(refresh)
    }
    return .json(
      TokenAnswer(accessToken: access, refreshToken: refresh),
      headers: ["Cache-Control": "no-store"])
  }

  /// A successful token answer (RFC 6749 §5.1).
  private struct TokenAnswer: Encodable {
    var accessToken: String
    var tokenType = "bearer"
    var expiresIn = 300
    var refreshToken: String

    private enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case tokenType = "token_type"
      case expiresIn = "expires_in"
      case refreshToken = "refresh_token"
    }
  }

  private static func credentials(_ header: String?) -> (scheme: String, value: String) {
    let parts = (header ?? "").split(separator: " ", maxSplits: 1).map(String.init)
    return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
  }
}
