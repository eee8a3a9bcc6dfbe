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
  /// A connection to the example API; `clock` is its clock and the one its slow answers wait
  /// on (real time unless given).
  static func connection(
    networkLimit: Int = 6, clock: (any ConvoyClock)? = nil
  ) -> (ServerConnection, StubTransport) {
    let stub = StubTransport(respond: answer)
    var configuration = ServerConfiguration.local(port: 9)
    if let clock {
      configuration.clock = clock
      stub.clock = clock
    }
    let connection = ServerConnection(
      configuration: configuration, transport: stub, networkConcurrencyLimit: networkLimit)
    return (connection, stub)
  }

  /// A connection whose transfers go through `meter`.
  static func connection(networkLimit: Int, meter: ConcurrencyMeter) -> ServerConnection {
    ServerConnection(
      configuration: .local(port: 9), transport: meter, networkConcurrencyLimit: networkLimit)
  }
}

/// Counts transfers in flight to check concurrency limits: it wraps a stub and counts from the
/// start of each transfer to its completion.
final class ConcurrencyMeter: HTTPTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var current = 0
  private var maximum = 0
  private let stub: StubTransport

  /// A meter in front of a stub that answers like ``ExampleAPI`` after `delay` seconds.
  init(delay: Double) {
    stub = StubTransport { .delayed(delay, ExampleAPI.answer($0)) }
  }

  var peak: Int { lock.withLock { maximum } }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    lock.withLock {
      current += 1
      maximum = max(maximum, current)
    }
    defer { lock.withLock { current -= 1 } }
    return try await stub.send(request)
  }
}
