import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A simulated OAuth2 server for authentication tests: issues `token-N` on each refresh and
/// accepts only the newest token on `GET me`.
final class TokenServer: @unchecked Sendable {
  enum RefreshBehaviour {
    case issue
    case refuse(status: Int, code: String = "invalid_grant")
    case fail(TransportFailure)
    case slow(TimeInterval)
  }

  private let lock = NSLock()
  private var generation = 1
  private var _refreshCalls = 0
  private var _refreshBodies: [String] = []
  var refreshBehaviour = RefreshBehaviour.issue
  var alwaysRejectTokens = false
  /// The `expires_in` of every token a refresh issues.
  var issuedLifetime: TimeInterval = 3_600

  var refreshCalls: Int { lock.withLock { _refreshCalls } }
  var refreshBodies: [String] { lock.withLock { _refreshBodies } }
  var validToken: String { lock.withLock { "token-\(generation)" } }

  /// The connection's clock; delayed answers wait on it too.
  let clock = TestClock()

  lazy var transport: StubTransport = {
    let transport = StubTransport { [unowned self] request in self.answer(request) }
    transport.clock = clock
    return transport
  }()

  func connection(
    token: String = "token-1", expiresIn: TimeInterval = 3_600,
    authentication: AuthenticationConfiguration = AuthenticationConfiguration(),
    baseURL: String = "https://api.example.com/",
    observers: [any EventObserver] = [], tracing: (any CallTracing)? = nil
  ) throws -> ServerConnection {
    var authentication = authentication
    authentication.client = authentication.client ?? Self.client
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: baseURL)!, authentication: authentication,
        clock: clock),
      transport: transport, observers: observers, tracing: tracing)
    try connection.login(session: Self.session(token: token, expiresIn: expiresIn, at: clock.now))
    return connection
  }

  /// The app's client: credentials in the form body, the token endpoint on the API's host.
  static let client = OAuthClient(
    id: "app", secret: "client-s3cret", authenticationMethod: .clientSecretPost,
    endpoints: OAuthEndpoints(token: "oauth/token"))

  static func session(token: String, expiresIn: TimeInterval = 3_600, at now: Date = Date())
    -> Session
  {
    Session(
      accessToken: AccessToken(
        value: token, expiresAt: now.addingTimeInterval(expiresIn), refreshToken: "refresh-r1"))
  }

  private func answer(_ request: TransportRequest) -> StubTransport.Answer {
    let path = request.urlRequest.url?.path ?? ""
    if path.hasSuffix("oauth/token") { return refresh(request) }
    let authorization = request.urlRequest.value(forHTTPHeaderField: "Authorization")
    let accepted = lock.withLock {
      !alwaysRejectTokens && authorization == "Bearer token-\(generation)"
    }
    let answer: StubTransport.Answer =
      accepted ? .json(["me": "alice"]) : .json(["reason": "Invalid Token."], status: 401)
    return path.hasSuffix("slow") ? .delayed(0.5, answer) : answer
  }

  private func refresh(_ request: TransportRequest) -> StubTransport.Answer {
    let (behaviour, token, lifetime): (RefreshBehaviour, String, TimeInterval) = lock.withLock {
      _refreshCalls += 1
      _refreshBodies.append(String(decoding: request.urlRequest.httpBody ?? Data(), as: UTF8.self))
      if case .refuse = refreshBehaviour { return (refreshBehaviour, "", 0) }
      if case .fail = refreshBehaviour { return (refreshBehaviour, "", 0) }
      generation += 1
      return (refreshBehaviour, "token-\(generation)", issuedLifetime)
    }
    let issued = StubTransport.Answer.json([
      "access_token": token, "token_type": "bearer", "expires_in": lifetime,
    ])
    switch behaviour {
    case .issue: return issued
    case .slow(let seconds): return .delayed(seconds, issued)
    case .refuse(let status, let code): return .json(["error": code], status: status)
    case .fail(let failure): return .failure(failure)
    }
  }
}

struct Me: RequestDescribing {
  typealias Response = JSONResponse<[String: String]>
  var method: HTTPMethod { .get }
  var path: String { "me" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}
