import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Streamed answers behave the same on every transport: the head is judged first, the body
/// arrives in pieces, and leaving early or cancelling closes the transfer.
@Suite("Streaming conformance", .timeLimit(.minutes(2)), .needs(.httpbin))
struct StreamingConformanceTests {
  @Test(arguments: TransportUnderTest.allCases)
  func streamsTheWholeBodyInPieces(_ kind: TransportUnderTest) async throws {
    // httpbin's /range/N sends "abc…z" repeated, in pieces of `chunk_size`.
    let stream = try await streamingConnection(kind).stream(
      StreamCall(path: "/range/100000?chunk_size=4096"))
    #expect(stream.head.statusCode == 200)
    var streamed = Data()
    var pieces = 0
    for try await chunk in stream.body {
      streamed.append(chunk)
      pieces += 1
    }
    let expected = (0..<100_000).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    #expect(streamed.count == 100_000)
    #expect(streamed.elementsEqual(expected), "the streamed bytes differ from the body sent")
    #expect(pieces > 1)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aSlowReaderGetsEveryByteThroughPausesAndResumes(_ kind: TransportUnderTest) async throws {
    // An 8 KiB buffer under a 100 KiB body read slowly: the transfer pauses and resumes many times.
    let stream = try await streamingConnection(kind).stream(
      StreamCall(path: "/range/102400?chunk_size=2048"), options: StreamOptions(bufferSize: 8192))
    var streamed = Data()
    for try await chunk in stream.body {
      streamed.append(chunk)
      // Real time on purpose: only a reader slower than loopback makes the buffer fill and the
      // transfer pause, which is what this test is for.
      try await Task.sleep(nanoseconds: 2_000_000)
    }
    let expected = (0..<102_400).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    #expect(streamed.count == 102_400)
    #expect(streamed.elementsEqual(expected), "the streamed bytes differ from the body sent")
  }

  @Test(arguments: TransportUnderTest.allCases)
  func handsOverTheHeadBeforeASlowBodyEnds(_ kind: TransportUnderTest) async throws {
    let connection = try streamingConnection(kind)
    // Four bytes over two seconds: the head comes at once, the bytes one by one.
    let stream = try await connection.stream(
      StreamCall(path: "/drip?duration=2&numbytes=4&delay=0"))
    let started = Date()
    var arrivals: [TimeInterval] = []
    for try await chunk in stream.body {
      arrivals.append(
        contentsOf: Array(repeating: Date().timeIntervalSince(started), count: chunk.count))
    }
    #expect(arrivals.count == 4)
    #expect(arrivals.first! < arrivals.last!)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func followsRedirectsBeforeHandingOverTheStream(_ kind: TransportUnderTest) async throws {
    let stream = try await streamingConnection(kind).stream(StreamCall(path: "/redirect/2"))
    #expect(stream.head.statusCode == 200)
    #expect(stream.head.url?.path == "/get")
    var body = Data()
    for try await chunk in stream.body { body.append(chunk) }
    #expect(String(decoding: body, as: UTF8.self).contains("\"url\""))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func anErrorStatusThrowsBeforeAnyBody(_ kind: TransportUnderTest) async throws {
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await streamingConnection(kind).stream(StreamCall(path: "/status/404"))
    }
    #expect(error?.statusCode == 404)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func leavingTheLoopClosesTheTransferAndFreesTheSlot(_ kind: TransportUnderTest) async throws {
    // One network slot: the second call can only run once the stream gave its slot back.
    let connection = try streamingConnection(kind, networkLimit: 1)
    let stream = try await connection.stream(
      StreamCall(path: "/drip?duration=30&numbytes=30&delay=0"))
    for try await _ in stream.body { break }
    let answer = try await connection.execute(StreamCall(path: "/get"))
    #expect(answer.response.statusCode == 200)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func droppingAStreamUnreadClosesTheTransferAndFreesTheSlot(_ kind: TransportUnderTest)
    async throws
  {
    // One network slot, and a body that would take a minute: only closing the dropped stream's
    // transfer lets the next call run, and only a close ends its call as cancelled.
    let cancelled = OneShot<Void>()
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.timeout = 300
    let connection = ServerConnection(
      configuration: configuration, transport: try kind.make(),
      observers: [
        AnyEventObserver { event in if event.name == .requestCancelled { cancelled.fulfil(()) } }
      ],
      networkConcurrencyLimit: 1)
    try await openAndDrop(StreamCall(path: "/drip?duration=60&numbytes=60&delay=0"), connection)
    // The suite's time limit bounds this wait: a stream never closed would never say so.
    await cancelled.value()
    let answer = try await connection.execute(StreamCall(path: "/get"))
    #expect(answer.response.statusCode == 200)
  }

  /// Opens `call` as a stream and lets it go without reading its body.
  private func openAndDrop(_ call: StreamCall, _ connection: ServerConnection) async throws {
    let stream = try await connection.stream(call)
    #expect(stream.head.statusCode == 200)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func cancellingTheReadingTaskClosesTheTransfer(_ kind: TransportUnderTest) async throws {
    let connection = try streamingConnection(kind, networkLimit: 1)
    let reading = OneShot<Void>()
    let reader = Task {
      let stream = try await connection.stream(
        StreamCall(path: "/drip?duration=30&numbytes=30&delay=0"))
      var count = 0
      for try await chunk in stream.body {
        count += chunk.count
        reading.fulfil(())
      }
      return count
    }
    // Cancelled mid-body: once the first byte has come, 29 more seconds of it remain.
    await reading.value()
    reader.cancel()
    let outcome = await reader.result
    #expect(throws: ServerConnectionError.cancelled) { try outcome.get() }
    let answer = try await connection.execute(StreamCall(path: "/get"))
    #expect(answer.response.statusCode == 200)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func theWholeCallDeadlineDoesNotEndALongStream(_ kind: TransportUnderTest) async throws {
    // The deadline runs on a test clock, so how soon a loaded machine delivers the head does not
    // matter: the clock passes the five-second deadline only once the head is in, and the
    // three-second body must still arrive whole. The idle limit, on real time, is set apart.
    let clock = TestClock()
    var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
    configuration.timeout = 5
    configuration.clock = clock
    let connection = ServerConnection(configuration: configuration, transport: try kind.make())
    let stream = try await connection.stream(
      StreamCall(path: "/drip?duration=3&numbytes=6&delay=0"),
      options: StreamOptions(idleTimeout: 60))
    clock.advance(by: 10)
    var count = 0
    for try await chunk in stream.body { count += chunk.count }
    #expect(count == 6)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aSilentBodyFailsAfterTheIdleLimit(_ kind: TransportUnderTest) async throws {
    let connection = try streamingConnection(kind)
    // Two bytes ten seconds apart, with an idle limit of two seconds.
    let stream = try await connection.stream(
      StreamCall(path: "/drip?duration=10&numbytes=2&delay=0"),
      options: StreamOptions(idleTimeout: 2))
    let error = await #expect(throws: ServerConnectionError.self) {
      for try await _ in stream.body {}
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .timedOut)
  }
}

/// A plain GET whose answer is kept as bytes, for streaming tests.
struct StreamCall: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
  var queryItems: [URLQueryItem] = []
  var headers = HTTPHeaders()
  var body: RequestBody?

  /// `target` is a path with an optional query, such as `/drip?numbytes=4`.
  init(method: HTTPMethod = .get, path target: String) {
    self.method = method
    let parts = target.split(separator: "?", maxSplits: 1)
    path = String(parts[0])
    if parts.count > 1 {
      queryItems = URLComponents(string: "?" + parts[1])?.queryItems ?? []
    }
  }
}

/// A connection to the shared httpbin over `kind`.
func streamingConnection(
  _ kind: TransportUnderTest, timeout: TimeInterval = 300, networkLimit: Int = 6
) throws -> ServerConnection {
  var configuration = ServerConfiguration.local(port: HTTPBin.shared.port)
  configuration.timeout = timeout
  return ServerConnection(
    configuration: configuration, transport: try kind.make(),
    networkConcurrencyLimit: networkLimit)
}
