import Convoy
import ConvoyTestSupport
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Convoy's transports against a `MockServer`: what an app's tests do with it, on each transport.
@Suite struct MockServerTransportTests {
  /// The transports an app can use here.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if os(Linux)
      case curl
    #endif

    var testDescription: String { rawValue }

    func connection(to server: MockServer, timeout: TimeInterval = 300) throws -> ServerConnection {
      var configuration = ServerConfiguration(environment: .local, baseURL: server.baseURL)
      configuration.timeout = timeout
      configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
      return ServerConnection(configuration: configuration, transport: try transport())
    }

    /// A fresh transport of this kind.
    func transport() throws -> any HTTPTransport {
      switch self {
      case .urlSession: URLSessionTransport()
      #if os(Linux)
        case .curl: try CurlTransport()
      #endif
      }
    }
  }

  struct Place: Codable, Sendable, Equatable {
    var id: Int
    var name: String
  }

  struct PlaceRequest: RequestDescribing {
    typealias Response = JSONResponse<Place>
    var id: Int
    var method: HTTPMethod { .get }
    var path: String { "places/\(id)" }
  }

  struct Upload: RequestDescribing {
    typealias Response = DataResponse
    var data: Data
    var method: HTTPMethod { .post }
    var path: String { "uploads" }
    var body: RequestBody? { .data(data, contentType: "application/octet-stream") }
  }

  struct Get: RequestDescribing {
    typealias Response = DataResponse
    var path: String
    var method: HTTPMethod { .get }
  }

  @Test(arguments: Kind.allCases)
  func anEndpointIsAnsweredAndItsRequestRecorded(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    server.enqueue(.json(Place(id: 7, name: "Harbour")))
    let place = try await kind.connection(to: server).execute(PlaceRequest(id: 7)).value
    #expect(place == Place(id: 7, name: "Harbour"))
    let request = try await server.takeRequest()
    #expect(request.method == "GET")
    #expect(request.path == "/places/7")
    await server.shutdown()
  }

  @Test(arguments: Kind.allCases)
  func aLaterCallReusesTheKeptAliveConnection(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    server.route(.get, "/places/*", answer: .json(Place(id: 1, name: "Pier")))
    let connection = try kind.connection(to: server)
    _ = try await connection.execute(PlaceRequest(id: 1))
    _ = try await connection.execute(PlaceRequest(id: 2))
    let first = try await server.takeRequest()
    let second = try await server.takeRequest()
    #expect(second.connection == first.connection)
    #expect(second.indexOnConnection == 1)
    #expect(server.statistics.connectionsOpened == 1)
    await server.shutdown()
  }

  @Test(arguments: Kind.allCases)
  func aLargeRequestBodyArrivesWhole(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    server.route(.post, "/uploads") { request in .text(String(request.body.count), status: 201) }
    let data = Data.periodic(count: 3_000_000) { UInt8(truncatingIfNeeded: $0 &* 31) }
    let answer = try await kind.connection(to: server).execute(Upload(data: data))
    #expect(String(decoding: answer.data, as: UTF8.self) == "3000000")
    #expect(try await server.takeRequest().body == data)
    await server.shutdown()
  }

  @Test(arguments: Kind.allCases)
  func aThrottledOrStreamedBodyArrivesIntact(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    var throttled = MockAnswer.text(String(repeating: "abcdefgh", count: 64))
    throttled.throttle = MockThrottle(bytes: 128, per: .milliseconds(5))
    server.route("/throttled", answer: throttled)
    let pieces = AsyncStream<Data> { continuation in
      for index in 0..<5 { continuation.yield(Data("piece \(index);".utf8)) }
      continuation.finish()
    }
    server.route("/streamed", answer: MockAnswer(body: .stream(pieces)))
    let connection = try kind.connection(to: server)
    let slow = try await connection.execute(Get(path: "throttled"))
    #expect(slow.data == Data(String(repeating: "abcdefgh", count: 64).utf8))
    let streamed = try await connection.execute(Get(path: "streamed"))
    #expect(
      String(decoding: streamed.data, as: UTF8.self) == "piece 0;piece 1;piece 2;piece 3;piece 4;")
    await server.shutdown()
  }

  @Test(arguments: Kind.allCases)
  func aCancelledCallIsSeenByTheServerAsAClosedConnection(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    server.route(
      "/slow",
      answer: MockAnswer.text("late").with(fault: .stall(afterBodyBytes: 0, for: .seconds(3600))))
    let connection = try kind.connection(to: server)
    let call = Task { try await connection.execute(Get(path: "slow")) }
    _ = try await server.takeRequest()
    call.cancel()
    let result = await call.result
    #expect((result.failure as? ServerConnectionError)?.isCancellation == true)
    // The proof that the transfer was abandoned, not left running: the server saw it close.
    try await server.waitUntil("the cancelled call's connection to close") {
      $0.connectionsClosed == 1
    }
    await server.shutdown()
  }

  @Test(arguments: Kind.allCases)
  func eventsArriveAndADroppedStreamResumesAfterTheLastID(_ kind: Kind) async throws {
    let server = try await MockServer.started()
    server.route(.get, "/feed") { request in
      switch request.headers["Last-Event-ID"] {
      case nil:
        .events([MockEvent(id: "1", data: "one"), MockEvent(id: "2", data: "two")], then: .drop)
      case "2": .events([MockEvent(id: "3", data: "three")])
      default: .status(204)
      }
    }
    let connection = try kind.connection(to: server)
    var received: [String] = []
    let options = EventStreamOptions(
      reconnectionDelay: 0.01, maximumReconnectionDelay: 0.05, maximumReconnections: 5)
    for try await event in connection.events(Get(path: "feed"), options: options) {
      received.append(event.data)
    }
    #expect(received == ["one", "two", "three"])
    let lastIDs = server.requests.map { $0.headers["Last-Event-ID"] }
    #expect(lastIDs == [nil, "2", "3"])
    await server.shutdown()
  }

  @Test func rangedAnswersFollowRangeAndIfRange() async throws {
    let server = try await MockServer.started()
    let body = Data("0123456789".utf8)
    server.route("/file") { .ranged(body, for: $0, etag: "\"v2\"") }
    server.route("/careless") { .ranged(body, for: $0, etag: "\"v2\"", honoursIfRange: false) }
    func fetch(_ path: String, _ headers: [String: String]) async throws -> (Int, String) {
      var request = URLRequest(url: server.url(for: path))
      for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
      let (data, response) = try await URLSession.shared.data(for: request)
      return (
        (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self)
      )
    }
    #expect(try await fetch("/file", ["Range": "bytes=4-"]) == (206, "456789"))
    #expect(try await fetch("/file", ["Range": "bytes=-3"]) == (206, "789"))
    #expect(
      try await fetch("/file", ["Range": "bytes=4-", "If-Range": "\"v2\""]) == (206, "456789"))
    #expect(
      try await fetch("/file", ["Range": "bytes=4-", "If-Range": "\"v1\""]) == (200, "0123456789"))
    #expect(try await fetch("/file", ["Range": "bytes=20-"]).0 == 416)
    #expect(
      try await fetch("/careless", ["Range": "bytes=4-", "If-Range": "\"v1\""]) == (206, "456789"))
    await server.shutdown()
  }

  @Test func shuttingDownEndsAStalledAnswerAndItsConnection() async throws {
    let server = try await MockServer.started()
    server.route(
      "/stall",
      answer: MockAnswer.text("x").with(fault: .stall(afterBodyBytes: 0, for: .seconds(3600))))
    let connection = try Kind.urlSession.connection(to: server)
    let call = Task { try await connection.execute(Get(path: "stall")) }
    _ = try await server.takeRequest()
    await server.shutdown()
    #expect(server.statistics.openConnections == 0)
    let result = await call.result
    #expect(result.failure != nil, "a stalled answer ended by shutdown cannot be a success")
  }

  @Test func listensOnIPv6LoopbackToo() async throws {
    let server = try await MockServer.started(host: .ipv6Loopback)
    #expect(server.baseURL.absoluteString.hasPrefix("http://[::1]:"))
    server.enqueue(.json(Place(id: 3, name: "Quay")))
    let place = try await Kind.allCases.last!.connection(to: server).execute(PlaceRequest(id: 3))
    #expect(place.value.name == "Quay")
    await server.shutdown()
  }
}

extension Result {
  /// The error, when this is a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
