import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A small stubbed API for the examples: a login in three steps and a screen in three parts.
///
/// Paths: `client-secret`, `token` (POST `{"secret":…}`), `session` (needs `Authorization`),
/// `profile`, `articles`, `settings`, `value/N` (answers N), `slow/S/N` (N after S seconds),
/// `fail/STATUS`.
enum ExampleAPI {
  struct Secret: Codable, Sendable, Equatable { var secret: String }
  struct Token: Codable, Sendable, Equatable { var accessToken: String }
  struct Session: Codable, Sendable, Equatable { var user: String, token: String }
  struct Profile: Codable, Sendable, Equatable { var name: String }
  struct Article: Codable, Sendable, Equatable { var title: String }
  struct Settings: Codable, Sendable, Equatable { var theme: String }
  struct Number: Codable, Sendable, Equatable { var value: Int }

  struct ClientSecretRequest: RequestDescribing {
    typealias Response = JSONResponse<Secret>
    var method: HTTPMethod { .get }
    var path: String { "client-secret" }
  }

  struct AccessTokenRequest: RequestDescribing {
    typealias Response = JSONResponse<Token>
    var secret: String
    var method: HTTPMethod { .post }
    var path: String { "token" }
    var body: RequestBody? { .json(["secret": secret]) }
  }

  struct SessionRequest: RequestDescribing {
    typealias Response = JSONResponse<Session>
    var token: String
    var method: HTTPMethod { .get }
    var path: String { "session" }
    var headers: HTTPHeaders { ["Authorization": "Bearer \(token)"] }
  }

  struct ProfileRequest: RequestDescribing {
    typealias Response = JSONResponse<Profile>
    var method: HTTPMethod { .get }
    var path: String { "profile" }
  }

  struct ArticlesRequest: RequestDescribing {
    typealias Response = JSONResponse<[Article]>
    var method: HTTPMethod { .get }
    var path: String { "articles" }
  }

  struct SettingsRequest: RequestDescribing {
    typealias Response = JSONResponse<Settings>
    var method: HTTPMethod { .get }
    var path: String { "settings" }
  }

  /// Answers `value` after `delay` seconds (at once for 0).
  struct NumberRequest: RequestDescribing {
    typealias Response = JSONResponse<Number>
    var value: Int
    var delay: Double = 0
    var method: HTTPMethod { .get }
    var path: String { delay > 0 ? "slow/\(delay)/\(value)" : "value/\(value)" }
  }

  struct FailingRequest: RequestDescribing {
    typealias Response = JSONResponse<Number>
    var status: Int = 500
    var method: HTTPMethod { .get }
    var path: String { "fail/\(status)" }
  }

  static func answer(_ request: TransportRequest) -> StubTransport.Answer {
    let url = request.urlRequest.url!
    let parts = url.path.split(separator: "/").map(String.init)
    switch parts.first ?? "" {
    case "client-secret":
      return .encoded(Secret(secret: "s3cr3t"))
    case "token":
      let body = request.urlRequest.httpBody.flatMap {
        try? JSONDecoder().decode([String: String].self, from: $0)
      }
      return .encoded(Token(accessToken: "token-for-\(body?["secret"] ?? "nothing")"))
    case "session":
      guard let auth = request.urlRequest.value(forHTTPHeaderField: "Authorization") else {
        return .status(401)
      }
      return .encoded(Session(user: "ada", token: String(auth.dropFirst("Bearer ".count))))
    case "profile": return .encoded(Profile(name: "Ada"))
    case "articles": return .encoded([Article(title: "One"), Article(title: "Two")])
    case "settings": return .encoded(Settings(theme: "dark"))
    case "value": return .encoded(Number(value: Int(parts[1]) ?? -1))
    case "slow":
      return .delayed(Double(parts[1]) ?? 1, .encoded(Number(value: Int(parts[2]) ?? -1)))
    case "fail": return .status(Int(parts[1]) ?? 500)
    default: return .status(404)
    }
  }

  /// A connection to the stubbed API and the stub behind it.
  static func connection(networkLimit: Int = 6, transport: StubTransport? = nil)
    -> (ServerConnection, StubTransport)
  {
    let stub = transport ?? StubTransport(respond: answer)
    let connection = ServerConnection(
      configuration: .local(port: 9), transport: stub, networkConcurrencyLimit: networkLimit)
    return (connection, stub)
  }
}

/// Counts transfers in flight to check concurrency limits.
final class ConcurrencyMeter: @unchecked Sendable {
  private let lock = NSLock()
  private var current = 0
  private(set) var maximum = 0

  func enter() {
    lock.withLock {
      current += 1
      maximum = max(maximum, current)
    }
  }

  func leave() { lock.withLock { current -= 1 } }

  var peak: Int { lock.withLock { maximum } }

  /// A stub that answers like ``ExampleAPI`` after `delay` seconds and measures concurrency.
  func stub(delay: Double) -> StubTransport {
    StubTransport { [self] request in
      enter()
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) { self.leave() }
      return .delayed(delay, ExampleAPI.answer(request))
    }
  }
}
