import Convoy
import ConvoyTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A call to httpbin whose answer is read as a JSON object.
private struct Call: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
  var queryItems: [URLQueryItem] = []
  var body: RequestBody? = nil
  var acceptableStatusCodes: Range<Int> = 200..<300
  var allowsRetry = false
  var retryPolicy: RetryPolicy? = nil
  var adapters: [any RequestAdapter] = []
}

/// Counts the attempts of a call: adapters run once per attempt.
private final class AttemptCounter: RequestAdapter, @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  var count: Int { lock.withLock { value } }

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    lock.withLock { value += 1 }
    return request
  }
}

/// Retries quickly, so that counting attempts costs little time.
private let quickRetries = RetryPolicy(maximumRetries: 2, baseDelay: 0.01, jitter: 0)

@Suite(.serialized, .needs(.httpbin)) struct PipelineIntegrationTests {
  private let connection = ServerConnection(
    configuration: ServerConfiguration(
      environment: .local, baseURL: HTTPBin.shared.baseURL, retryPolicy: quickRetries),
    transport: URLSessionTransport())

  private func echo(_ call: Call) async throws -> [String: Any] {
    let data = try await connection.execute(call).data
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  // MARK: Bodies echoed by /post

  @Test func jsonBodiesAreEchoedAsSent() async throws {
    struct Place: Encodable, Sendable {
      var name = "Café Zürich"
      var rating = 4.5
      var open = true
      var tags = ["coffee", "wifi"]
    }
    let echoed = try await echo(Call(method: .post, path: "post", body: .json(Place())))
    let expected: [String: Any] = [
      "name": "Café Zürich", "rating": 4.5, "open": true, "tags": ["coffee", "wifi"],
    ]
    #expect((echoed["json"] as? NSDictionary) == (expected as NSDictionary))
  }

  @Test(arguments: [FormURLEncoder.SpaceEncoding.percentEncoded, .plus])
  func formBodiesAreParsedByTheServerAsSent(spaces: FormURLEncoder.SpaceEncoding) async throws {
    let parameters: [String: FormValue] = [
      "name": "Ann Lee", "city": "Zürich", "note": "a+b&c=d/é", "ids": [1, 2],
      "user": ["admin": true, "address": ["zip": 8001]],
    ]
    let body = RequestBody.form(parameters, encoder: FormURLEncoder(spaceEncoding: spaces))
    let echoed = try await echo(Call(method: .post, path: "post", body: body))
    let expected: [String: Any] = [
      "name": "Ann Lee", "city": "Zürich", "note": "a+b&c=d/é", "ids[]": ["1", "2"],
      "user[admin]": "1", "user[address][zip]": "8001",
    ]
    #expect((echoed["form"] as? NSDictionary) == (expected as NSDictionary))
    let headers = try #require(echoed["headers"] as? [String: String])
    #expect(headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
  }

  @Test(arguments: [RequestBody.multipartMemoryThreshold, 0])
  func multipartFieldsAndFileBytesArriveExactly(memoryThreshold: Int) async throws {
    // Not valid UTF-8, so httpbin returns the file as a base64 data URL we can compare bytes with.
    let bytes = Data.periodic(count: 1_500_000) { UInt8(($0 * 7 + 0x80) % 256) }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fileURL = directory.appendingPathComponent("scan.png")
    try bytes.write(to: fileURL)
    var form = MultipartFormData()
    form.append("Harbour Café", name: "title")
    form.append("2", name: "count")
    form.append(fileAt: fileURL, name: "photo")
    form.append(Data("plain notes".utf8), name: "notes", fileName: "notes.txt")
    let body = RequestBody.multipart(form, memoryThreshold: memoryThreshold)

    let echoed = try await echo(Call(method: .post, path: "post", body: body))
    let fields = try #require(echoed["form"] as? [String: String])
    #expect(fields == ["title": "Harbour Café", "count": "2"])
    let files = try #require(echoed["files"] as? [String: String])
    #expect(files["notes"] == "plain notes")
    let photo = try #require(files["photo"])
    let prefix = "data:image/png;base64,"
    #expect(photo.hasPrefix(prefix))
    #expect(Data(base64Encoded: String(photo.dropFirst(prefix.count))) == bytes)
  }

  // MARK: Retries

  @Test func a503IsRetriedTheConfiguredNumberOfTimesThenReported() async throws {
    let counter = AttemptCounter()
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(Call(path: "status/503", adapters: [counter]))
    }
    #expect(error?.statusCode == 503)
    #expect(counter.count == 3)
  }

  @Test func a404IsNotRetried() async throws {
    let counter = AttemptCounter()
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(Call(path: "status/404", adapters: [counter]))
    }
    #expect(error?.statusCode == 404)
    #expect(counter.count == 1)
  }

  @Test func aPostIsRetriedOnlyWhenTheRequestOptsIn() async throws {
    let plain = AttemptCounter()
    let optedIn = AttemptCounter()
    let post = Call(method: .post, path: "status/503", body: .json(["a": 1]))
    var retryable = post
    retryable.allowsRetry = true
    retryable.adapters = [optedIn]
    var once = post
    once.adapters = [plain]
    await #expect(throws: ServerConnectionError.self) { try await connection.execute(once) }
    await #expect(throws: ServerConnectionError.self) { try await connection.execute(retryable) }
    #expect(plain.count == 1)
    #expect(optedIn.count == 3)
  }

  @Test func aRefusedConnectionIsRetriedThenReported() async throws {
    let refused = ServerConnection(
      configuration: ServerConfiguration(
        environment: .local,
        baseURL: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!,
        retryPolicy: quickRetries),
      transport: URLSessionTransport())
    let counter = AttemptCounter()
    let error = await #expect(throws: ServerConnectionError.self) {
      try await refused.execute(Call(path: "get", adapters: [counter]))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .cannotConnectToHost)
    #expect(counter.count == 3)
  }

  /// httpbin sends any header with `/response-headers`, but always with status 200; the request
  /// therefore declines 200 and the policy counts it as transient, so the real header is read.
  @Test(arguments: ["seconds", "date"])
  func aRetryAfterFromTheServerIsHonoured(form: String) async throws {
    let value: String
    if form == "seconds" {
      value = "1"
    } else {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      value = formatter.string(from: Date().addingTimeInterval(2))
    }
    let counter = AttemptCounter()
    let call = Call(
      path: "response-headers", queryItems: [URLQueryItem(name: "Retry-After", value: value)],
      acceptableStatusCodes: 201..<300,
      retryPolicy: RetryPolicy(
        maximumRetries: 1, baseDelay: 0.01, maximumDelay: 30, retryableStatusCodes: [200]),
      adapters: [counter])
    let delays = Locked<[TimeInterval]>([])
    let observed = ServerConnection(
      configuration: connection.configuration, transport: connection.transport,
      observers: [
        AnyEventObserver { event in
          if case .requestRetried(let retry) = event.kind {
            delays.withLock { $0.append(retry.delay) }
          }
        }
      ])
    let started = Date()
    await #expect(throws: ServerConnectionError.self) { try await observed.execute(call) }
    #expect(counter.count == 2)
    // Whole seconds on the wire: a date two seconds ahead is between one and two seconds away;
    // a misread header would have given the policy's base delay or its 30 s cap instead.
    let delay = try #require(delays.current.first)
    #expect(delay >= 0.95 && delay <= 2, "chose a delay of \(delay) s")
    // And the call did wait that long (a lower bound: a busy machine only adds to it).
    #expect(Date().timeIntervalSince(started) >= 0.95)
  }

  // MARK: Default headers

  @Test func defaultHeadersReachTheServerAndGzipStillDecodes() async throws {
    let headers = try #require(
      try await echo(Call(path: "headers"))["headers"] as? [String: String])
    let version = try #require(try Changelog.newestVersion())
    #expect(headers["User-Agent"]?.hasSuffix(" Convoy/\(version)") == true)
    #expect(headers["Accept"] == "application/json, */*;q=0.8")
    #expect(headers["Accept-Encoding"] == "gzip, deflate")
    #expect(headers["Accept-Language"] != nil)
    let gzip = try await echo(Call(path: "gzip"))
    #expect(gzip["gzipped"] as? Bool == true)
    let deflate = try await echo(Call(path: "deflate"))
    #expect(deflate["deflated"] as? Bool == true)
  }
}
