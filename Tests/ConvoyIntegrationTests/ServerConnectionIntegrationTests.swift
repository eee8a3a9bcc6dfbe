import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// httpbin's echo of a request.
struct Echo: Decodable, Sendable {
  var args: [String: String]?
  var headers: [String: String]
  var json: [String: String]?
  var data: String?
  var method: String?
  var url: String?
}

private struct EchoGet: RequestDescribing {
  typealias Response = JSONResponse<Echo>
  var method: HTTPMethod { .get }
  var path: String { "get" }
  var queryItems: [URLQueryItem] {
    [URLQueryItem(name: "q", value: "a+b & ü"), URLQueryItem(name: "page", value: "2")]
  }
}

private struct EchoPost: RequestDescribing {
  typealias Response = JSONResponse<Echo>
  var path: String
  var queryItems: [URLQueryItem] = []
  var method: HTTPMethod { .post }
  var body: RequestBody? { .json(["name": "Harbour", "city": "Zürich"]) }
}

private struct Status: RequestDescribing {
  typealias Response = DataResponse
  var path: String
  var method: HTTPMethod { .get }
}

@Suite(.serialized, .timeLimit(.minutes(2)), .needs(.httpbin))
struct ServerConnectionIntegrationTests {
  private let connection = ServerConnection(
    configuration: ServerConfiguration(environment: .local, baseURL: HTTPBin.shared.baseURL),
    transport: URLSessionTransport())

  @Test func getsWithAQueryThatArrivesIntact() async throws {
    let echo = try await connection.execute(EchoGet()).value
    #expect(echo.args == ["q": "a+b & ü", "page": "2"])
  }

  @Test func postsJSONThatIsEchoedBack() async throws {
    let echo = try await connection.execute(EchoPost(path: "post")).value
    #expect(echo.json == ["name": "Harbour", "city": "Zürich"])
    #expect(echo.headers["Content-Type"] == "application/json")
  }

  @Test(arguments: [404, 500])
  func errorStatusesBecomeErrors(status: Int) async throws {
    await #expect {
      try await connection.execute(Status(path: "status/\(status)"))
    } throws: { error in
      guard case .httpError(status, let context) = error as? ServerConnectionError else {
        return false
      }
      return context.url?.contains("/status/\(status)") == true
    }
  }

  @Test(arguments: ["status/401", "basic-auth/user/passwd"])
  func basicChallengesComeBackAs401AtOnce(path: String) async throws {
    // A challenge left waiting for credentials would end at the request timeout as a timeout,
    // never as this 401: the status alone proves the challenge was answered at once.
    await #expect {
      try await connection.execute(Status(path: path))
    } throws: { error in
      if case .httpError(401, _) = error as? ServerConnectionError { return true }
      return false
    }
  }

  @Test func cancellingMidFlightEndsTheCall() async throws {
    // The server never answers, so only the cancellation can end this call; it is sent once
    // the server holds the request, so it lands mid-flight whatever the machine's load.
    let silent = ServerConnection(configuration: .local(port: FaultServer.shared.port))
    let call = FaultServer.FaultCall(fault: .neverAnswers)
    let task = Task { try await silent.execute(call) }
    try await FaultServer.shared.waitForRequest(key: call.key)
    task.cancel()
    await #expect(throws: ServerConnectionError.cancelled) { try await task.value }
  }

  @Test func aCallPastItsDeadlineTimesOut() async throws {
    // The server never answers: only the call's own deadline can end it.
    let silent = ServerConnection(configuration: .local(port: FaultServer.shared.port))
    var call = FaultServer.FaultCall(fault: .neverAnswers)
    call.timeout = 0.5
    await #expect {
      try await silent.execute(call)
    } throws: { error in
      if case .timedOut = error as? ServerConnectionError { return true }
      return false
    }
  }

  @Test func aRefusedConnectionIsATransportFailure() async throws {
    let refused = ServerConnection(
      configuration: .local(port: try closedLoopbackPort()), transport: URLSessionTransport())
    await #expect {
      try await refused.execute(Status(path: "get"))
    } throws: { error in
      guard case .transportFailed(let failure, _) = error as? ServerConnectionError else {
        return false
      }
      return failure.kind == .cannotConnectToHost
        && ErrorMessageProvider.category(of: error) == .serverUnreachable
    }
  }

  @Test func aMalformedURLIsRefusedBeforeSending() async throws {
    let broken = ServerConnection(
      configuration: ServerConfiguration(
        environment: .local, baseURL: URL(string: "http:/nohost")!),
      transport: URLSessionTransport())
    await #expect {
      try await broken.execute(Status(path: "get"))
    } throws: { error in
      if case .invalidURL = error as? ServerConnectionError { return true }
      return false
    }
  }

  @Test func a307RedirectResendsThePostWithItsBody() async throws {
    let request = EchoPost(
      path: "redirect-to",
      queryItems: [
        URLQueryItem(name: "url", value: HTTPBin.shared.url("/post").absoluteString),
        URLQueryItem(name: "status_code", value: "307"),
      ])
    let echo = try await connection.execute(request).value
    #expect(echo.json == ["name": "Harbour", "city": "Zürich"])
  }

  @Test func gzipBodiesArriveDecompressed() async throws {
    struct Gzip: RequestDescribing {
      typealias Response = JSONResponse<[String: AnyDecodableFlag]>
      var method: HTTPMethod { .get }
      var path: String { "gzip" }
    }
    let value = try await connection.execute(Gzip()).value
    #expect(value["gzipped"] == .flag(true))
  }
}

/// Decodes only booleans, skipping anything else; enough to read httpbin's `gzipped` flag.
enum AnyDecodableFlag: Decodable, Sendable, Equatable {
  case flag(Bool)
  case other

  init(from decoder: any Decoder) throws {
    self = (try? decoder.singleValueContainer().decode(Bool.self)).map(Self.flag) ?? .other
  }
}
