import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `scripts/sse_server.py` (sse-starlette on uvicorn) on a free loopback port: server-sent
/// events and JSON Lines as a real server formats them, started once per test process and
/// stopped at exit. Streams whose behaviour the tests script are ``ScriptedEventServer``'s.
///
/// Every endpoint keeps its state under a `key` query parameter: give each test its own
/// (``newKey()``) so tests running in parallel never see each other's requests.
final class SSEServer: LoopbackServer {
  let server: LoopbackServerProcess

  /// The server on 127.0.0.1.
  static let shared = SSEServer()

  private init() {
    server = LoopbackServerProcess.start(script: "sse_server.py", arguments: ["127.0.0.1"])
  }

  /// A key no other test uses.
  static func newKey() -> String { UUID().uuidString }

  /// One request the server received for a key, as `GET /log` reports it.
  struct LogEntry: Decodable, Sendable, Equatable {
    /// The request's path, e.g. `/events`.
    var path: String
    /// The `Last-Event-ID` header, when sent.
    var lastEventID: String?
    /// Whether an `Authorization` header came (its value is never reported).
    var authorizationPresent: Bool

    private enum CodingKeys: String, CodingKey {
      case path
      case lastEventID = "last_event_id"
      case authorizationPresent = "authorization_present"
    }
  }

  /// What every request for `key` carried, oldest first.
  func log(key: String) async throws -> [LogEntry] {
    var components = URLComponents(url: url("/log"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "key", value: key)]
    let (data, _) = try await URLSession.shared.data(from: components.url!)
    return try JSONDecoder().decode([LogEntry].self, from: data)
  }

  /// A connection to this server over `transport` (URLSession unless given).
  func connection(key: String, transport: (any HTTPTransport)? = nil) -> ServerConnection {
    ServerConnection(
      configuration: .local(port: port), transport: transport ?? URLSessionTransport())
  }
}
