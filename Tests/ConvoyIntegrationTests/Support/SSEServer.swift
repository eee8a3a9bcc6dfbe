import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `scripts/sse_server.py` (sse-starlette on uvicorn) on a free loopback port: server-sent
/// events, JSON Lines, a bearer-protected stream and an OAuth2 token endpoint, started once per
/// test process and stopped at exit.
///
/// Every endpoint keeps its state under a `key` query parameter: give each test its own
/// (``newKey()``) so tests running in parallel never see each other's requests.
final class SSEServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = SSEServer()

  /// The password the token endpoint's password grant accepts, with any user name.
  static let password = "correct horse"

  private init() {
    server = LoopbackServerProcess.start(script: "sse_server.py", arguments: ["127.0.0.1"])
  }

  /// A key no other test uses.
  static func newKey() -> String { UUID().uuidString }

  /// One request the server received for a key, as `GET /log` reports it.
  struct LogEntry: Decodable, Sendable, Equatable {
    /// The request's path, e.g. `/drop` or `/oauth/token`.
    var path: String
    /// The `Last-Event-ID` header, when sent.
    var lastEventID: String?
    /// Whether an `Authorization` header came (its value is never reported).
    var authorizationPresent: Bool
    /// The `grant_type` of a token request; `nil` for other requests.
    var grantType: String?

    private enum CodingKeys: String, CodingKey {
      case path
      case lastEventID = "last_event_id"
      case authorizationPresent = "authorization_present"
      case grantType = "grant_type"
    }
  }

  /// What every request for `key` carried, oldest first.
  func log(key: String) async throws -> [LogEntry] {
    var components = URLComponents(url: url("/log"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "key", value: key)]
    let (data, _) = try await URLSession.shared.data(from: components.url!)
    return try JSONDecoder().decode([LogEntry].self, from: data)
  }

  /// The server's OAuth2 client and token endpoint, for the tests of `key`: every grant
  /// carries the key, and access tokens live `tokenLifetime` seconds.
  func authentication(key: String, tokenLifetime: TimeInterval = 300)
    -> AuthenticationConfiguration
  {
    AuthenticationConfiguration(
      client: OAuthClient(
        id: "convoy-tests", secret: "convoy-tests-secret",
        endpoints: OAuthEndpoints(token: "oauth/token"),
        additionalParameters: ["key": key, "expires_in": String(tokenLifetime)]),
      refreshMargin: 0)
  }

  /// A connection to this server with the token endpoints of
  /// ``authentication(key:tokenLifetime:)``, over `transport` (URLSession unless given).
  func connection(
    key: String, tokenLifetime: TimeInterval = 300, transport: (any HTTPTransport)? = nil
  ) -> ServerConnection {
    var configuration = ServerConfiguration.local(port: port)
    configuration.authentication = authentication(key: key, tokenLifetime: tokenLifetime)
    return ServerConnection(
      configuration: configuration, transport: transport ?? URLSessionTransport())
  }
}
