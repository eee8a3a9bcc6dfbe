import Convoy
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real django-oauth-toolkit authorization server (`scripts/oauth_server.py`) on a free
/// loopback port, started once per test process and stopped at exit.
final class OAuthToolkit: Sendable {
  let port: Int

  /// The server on 127.0.0.1, started on first use.
  ///
  /// Django takes seconds to start and migrate: the wait happens on a dispatch thread, never on
  /// one of the few threads that run every test's tasks, which would stall the other suites.
  static func shared() async -> OAuthToolkit {
    await starting.value
  }

  private static let starting = Task<OAuthToolkit, Never> {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let server = LoopbackServerProcess.start(
          script: "oauth_server.py", arguments: ["127.0.0.1"])
        continuation.resume(returning: OAuthToolkit(port: server.port))
      }
    }
  }

  private init(port: Int) {
    self.port = port
  }

  /// The issuer, which is also the API's base URL: `http://127.0.0.1:<port>`.
  var issuer: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The confidential client of the password grant.
  var passwordClient: OAuthClient {
    OAuthClient(
      id: "convoy-password", secret: "password-secret", endpoints: .discovered(issuer: issuer))
  }
  /// The confidential client of the client credentials grant.
  var serviceClient: OAuthClient {
    OAuthClient(
      id: "convoy-service", secret: "service-secret", endpoints: .discovered(issuer: issuer))
  }
  /// The public client of the authorization code grant.
  var browserClient: OAuthClient {
    OAuthClient(id: "convoy-browser", scopes: ["read"], endpoints: .discovered(issuer: issuer))
  }
  /// The public client of the device grant; the toolkit's metadata names no device endpoint.
  var deviceClient: OAuthClient {
    OAuthClient(
      id: "convoy-device", scopes: ["read"],
      endpoints: OAuthEndpoints(issuer: issuer, deviceAuthorization: "o/device-authorization/"))
  }

  /// A connection whose API and authorization server are this server.
  func connection(
    client: OAuthClient, store: (any SessionStore)? = nil, observers: [any EventObserver] = []
  ) -> ServerConnection {
    ServerConnection(
      configuration: ServerConfiguration(
        environment: .local, baseURL: issuer, timeout: 20,
        authentication: AuthenticationConfiguration(client: client)),
      transport: URLSessionTransport(), sessionStore: store, observers: observers)
  }

  /// Every request the server received so far, as `METHOD /path`.
  func log() async throws -> [String] {
    let (data, _) = try await URLSession.shared.data(
      from: issuer.appendingPathComponent("test/log"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: [String]]
    return object?["requests"] ?? []
  }
}

/// `GET api/me`: the protected JSON endpoint.
struct ProtectedMe: RequestDescribing {
  struct Answer: Decodable, Sendable {
    var user: String
    var places: [String]
  }
  typealias Response = JSONResponse<Answer>
  var method: HTTPMethod { .get }
  var path: String { "api/me" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}
