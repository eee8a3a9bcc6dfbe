import ConvoyTesting
import Foundation

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A small standard OAuth2 server on the stub transport, at `https://id.example.com/`: metadata
/// (RFC 8414), a token endpoint with the password, client credentials and refresh grants, a
/// revocation endpoint, and `GET me` on the API at `https://api.example.com/`.
final class AuthorizationServerStub: @unchecked Sendable {
  static let issuer = URL(string: "https://id.example.com")!
  static let apiBaseURL = URL(string: "https://api.example.com/")!
  static let client = OAuthClient(
    id: "cli", secret: "s3cret", scopes: ["read", "write"], endpoints: .discovered(issuer: issuer))

  private let lock = NSLock()
  private var issued = 0
  private var validAccess: Set<String> = []
  private var validRefresh: Set<String> = []
  private var _revoked: [String] = []
  var publishesStandardMetadata = true
  var publishesOpenIDMetadata = false
  var metadataIssuer = issuer.absoluteString
  var revocationAnswer: StubAnswer?
  var accessLifetime: TimeInterval = 3_600
  var issuesRefreshTokens = true
  private var codes: [String: (challenge: String, redirectURI: String)] = [:]
  /// What successive device polls answer: `authorization_pending`, `slow_down`,
  /// `access_denied`, `expired_token` or `approve`, or `hang` for a poll answered only an hour
  /// later on ``clock``; pending once it runs out.
  var devicePolls: [String] = []
  var deviceInterval: Double = 0
  var deviceExpiresIn: Double = 600
  /// The next refresh is carried out (the token rotates) but its answer is lost on the way.
  var losesNextRefreshAnswer = false
  /// Whether a refresh token just rotated away is still accepted (a reuse grace period).
  var acceptsRotatedRefreshToken = false
  private var rotatedAway: Set<String> = []
  private var _pollDates: [Date] = []
  var pollDates: [Date] { lock.withLock { _pollDates } }

  /// Issues a code as the authorization endpoint would after the person approved.
  func approve(challenge: String, redirectURI: String) -> String {
    lock.withLock {
      issued += 1
      codes["code-\(issued)"] = (challenge, redirectURI)
      return "code-\(issued)"
    }
  }

  /// The connections' clock: token expiry and device-code polling wait on it.
  let clock = TestClock()

  lazy var transport: StubTransport = {
    let transport = StubTransport { [unowned self] request in self.answer(StubRequest(request)) }
    transport.clock = clock
    return transport
  }()

  /// What reached the server, as `METHOD path`.
  var log: [String] {
    transport.requests.map {
      "\($0.urlRequest.httpMethod ?? "GET") \($0.urlRequest.url?.path ?? "")"
    }
  }
  var revoked: [String] { lock.withLock { _revoked } }
  /// How many refresh grants reached the server.
  var refreshCalls: Int {
    transport.requests.filter { StubRequest($0).formBody["grant_type"] == "refresh_token" }.count
  }

  func connection(
    client: OAuthClient? = AuthorizationServerStub.client, observers: [any EventObserver] = [],
    store: (any SessionStore)? = nil
  ) -> ServerConnection {
    ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: Self.apiBaseURL,
        authentication: AuthenticationConfiguration(client: client), clock: clock),
      transport: transport, sessionStore: store, observers: observers)
  }

  private func answer(_ request: StubRequest) -> StubAnswer {
    switch (request.url.host ?? "", request.url.path) {
    case ("id.example.com", "/.well-known/oauth-authorization-server"):
      return publishesStandardMetadata ? metadata() : .json(["error": "not found"], status: 404)
    case ("id.example.com", "/.well-known/openid-configuration"):
      return publishesOpenIDMetadata ? metadata() : .status(404)
    case ("id.example.com", "/token"): return token(request)
    case ("id.example.com", "/revoke"): return revoke(request)
    case ("id.example.com", "/device"):
      guard clientIsAuthenticated(request) else {
        return .json(["error": "invalid_client"], status: 401)
      }
      return .json([
        "device_code": "device-secret", "user_code": "WDJB-MJHT",
        "verification_uri": "https://id.example.com/activate",
        "verification_uri_complete": "https://id.example.com/activate?user_code=WDJB-MJHT",
        "expires_in": deviceExpiresIn, "interval": deviceInterval,
      ])
    case ("api.example.com", "/me"):
      let token = request.header("Authorization")?.replacingOccurrences(of: "Bearer ", with: "")
      let valid = lock.withLock { token.map(validAccess.contains) ?? false }
      return valid ? .json(["me": "ada"]) : .json(["detail": "Invalid token."], status: 401)
    default: return .status(404)
    }
  }

  private func metadata() -> StubAnswer {
    .json([
      "issuer": metadataIssuer, "token_endpoint": "https://id.example.com/token",
      "authorization_endpoint": "https://id.example.com/authorize",
      "device_authorization_endpoint": "https://id.example.com/device",
      "revocation_endpoint": "https://id.example.com/revoke",
      "code_challenge_methods_supported": ["S256"],
    ])
  }

  private func clientIsAuthenticated(_ request: StubRequest) -> Bool {
    let expected = "Basic " + Data("cli:s3cret".utf8).base64EncodedString()
    return request.header("Authorization") == expected
  }

  private func token(_ request: StubRequest) -> StubAnswer {
    guard clientIsAuthenticated(request) else {
      return .json(["error": "invalid_client"], status: 401)
    }
    let form = request.formBody
    switch form["grant_type"] {
    case "password":
      guard form["username"] == "ada", form["password"] == "lovelace" else {
        return .json(
          ["error": "invalid_grant", "error_description": "Invalid credentials given."],
          status: 400)
      }
      return issue(refresh: issuesRefreshTokens)
    case "client_credentials":
      return issue(refresh: false)
    case "urn:ietf:params:oauth:grant-type:device_code":
      guard form["device_code"] == "device-secret" else {
        return .json(["error": "invalid_grant"], status: 400)
      }
      let next: String = lock.withLock {
        _pollDates.append(clock.now)
        return devicePolls.isEmpty ? "authorization_pending" : devicePolls.removeFirst()
      }
      switch next {
      case "approve": return issue(refresh: true)
      case "hang": return .delayed(3_600, .json(["error": "authorization_pending"], status: 400))
      default: return .json(["error": next], status: 400)
      }
    case "authorization_code":
      let grant = lock.withLock { codes.removeValue(forKey: form["code"] ?? "") }
      let verifier = form["code_verifier"] ?? ""
      guard let grant, grant.redirectURI == form["redirect_uri"],
        PKCE(verifier: verifier).challenge == grant.challenge
      else { return .json(["error": "invalid_grant"], status: 400) }
      return issue(refresh: true)
    case "refresh_token":
      let presented = form["refresh_token"] ?? ""
      let (known, losesAnswer) = lock.withLock { () -> (Bool, Bool) in
        let valid = validRefresh.remove(presented) != nil
        let graced = acceptsRotatedRefreshToken && rotatedAway.remove(presented) != nil
        if valid { rotatedAway.insert(presented) }
        defer { losesNextRefreshAnswer = false }
        return (valid || graced, losesNextRefreshAnswer)
      }
      guard known else { return .json(["error": "invalid_grant"], status: 400) }
      let answer = issue(refresh: true)
      guard !losesAnswer else {
        return .failure(TransportFailure(kind: .networkConnectionLost, detail: "connection reset"))
      }
      return answer
    default:
      return .json(["error": "unsupported_grant_type"], status: 400)
    }
  }

  private func issue(refresh: Bool) -> StubAnswer {
    let (access, refreshToken): (String, String?) = lock.withLock {
      issued += 1
      let access = "access-\(issued)"
      validAccess.insert(access)
      guard refresh else { return (access, nil) }
      validRefresh.insert("refresh-\(issued)")
      return (access, "refresh-\(issued)")
    }
    var body: [String: Any] = [
      "access_token": access, "token_type": "Bearer", "expires_in": accessLifetime,
      "scope": "read write",
    ]
    body["refresh_token"] = refreshToken
    return .json(body)
  }

  private func revoke(_ request: StubRequest) -> StubAnswer {
    if let revocationAnswer { return revocationAnswer }
    guard clientIsAuthenticated(request) else {
      return .json(["error": "invalid_client"], status: 401)
    }
    let token = request.formBody["token"] ?? ""
    lock.withLock {
      _revoked.append(token)
      validRefresh.remove(token)
      validAccess.remove(token)
    }
    return .status(200)
  }
}

struct MeAtTheAPI: RequestDescribing {
  typealias Response = JSONResponse<[String: String]>
  var method: HTTPMethod { .get }
  var path: String { "me" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}
