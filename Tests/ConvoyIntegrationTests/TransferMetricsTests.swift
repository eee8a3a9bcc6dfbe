import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What each transport measures of a real exchange: on curl the phases, sizes, protocol,
/// connection reuse and addresses; on FoundationNetworking's `URLSession`, which never delivers
/// task metrics, only what Convoy measures itself (duration and body sizes), the rest `nil`.
@Suite(.timeLimit(.minutes(2)), .needs(.httpbin, .nginx))
struct TransferMetricsTests {
  /// An nginx whose `/slow/` sends 512 KB per second. nginx lets the first second's worth go at
  /// once, so a megabyte takes a second or more.
  private static let slowNginx = Nginx(slowRate: "512k")

  /// Whether the transport reports phases and connections (everything but Linux's URLSession).
  private static func reportsPhases(_ kind: TransportUnderTest) -> Bool {
    #if canImport(FoundationNetworking)
      kind != .urlSession
    #else
      true
    #endif
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aNewConnectionShowsItsConnectPhaseAndAReusedOneNone(_ kind: TransportUnderTest)
    async throws
  {
    let transport = try kind.make()
    // nginx keeps connections open (httpbin's server closes each one after its answer).
    let name = "keep-alive-\(kind.rawValue).txt"
    try Nginx.shared.makeFile(named: name, byteCount: 100)
    let url = Nginx.shared.url(ofFile: name)
    let first = try await exchange(url, over: transport).get().metrics
    let second = try await exchange(url, over: transport).get().metrics
    for metrics in [first, second] {
      #expect(metrics.duration > 0)
      #expect(metrics.bytesReceived > 0)
      #expect(metrics.secureConnectionEnd == nil)
    }
    guard Self.reportsPhases(kind) else {
      for metrics in [first, second] {
        #expect(metrics.connectEnd == nil && metrics.responseStart == nil)
        #expect(metrics.isReusedConnection == nil && metrics.protocolVersion == nil)
        #expect(metrics.remoteAddress == nil && metrics.responseHeaderBytes == nil)
      }
      return
    }
    #expect(first.isReusedConnection == false)
    let connected = try #require(first.connectEnd)
    #expect(connected > 0)
    let firstByte = try #require(first.responseStart)
    #expect(firstByte >= connected)
    #expect(first.duration >= firstByte)
    #expect(first.protocolVersion == "HTTP/1.1")
    #expect(first.remoteAddress == "127.0.0.1")
    #expect(first.remotePort == Nginx.shared.port)
    #expect(first.localAddress == "127.0.0.1")
    #expect((first.localPort ?? 0) > 0)
    #expect((first.responseHeaderBytes ?? 0) > 0)
    #expect((first.requestHeaderBytes ?? 0) > 0)

    #expect(second.isReusedConnection == true)
    #expect(second.domainLookupEnd == nil)
    #expect(second.connectEnd == nil)
    #expect(second.responseStart != nil)
    #expect(second.localPort == first.localPort)
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aMegabyteBodysTransferTimeShows(_ kind: TransportUnderTest) async throws {
    let name = "metrics-\(kind.rawValue).bin"
    try Self.slowNginx.makeFile(named: name, byteCount: 1 << 20)
    let response = try await exchange(
      Self.slowNginx.url(ofFile: name, slow: true), over: try kind.make()
    ).get()
    let metrics = response.metrics
    #expect(metrics.bytesReceived == 1 << 20)
    #expect(metrics.duration > 0.5)
    guard Self.reportsPhases(kind) else {
      #expect(metrics.bodyDuration == nil)
      return
    }
    let body = try #require(metrics.bodyDuration)
    #expect(body > 0.5)
    #expect(body < metrics.duration)
  }

  @Test func aPostedBodyIsCountedApartFromTheRequestHead() async throws {
    #if os(Linux)
      var request = URLRequest(url: HTTPBin.shared.url("/post"))
      request.httpMethod = "POST"
      request.httpBody = Data(repeating: 0x61, count: 1_000)
      let metrics = try await exchange(TransportRequest(urlRequest: request), over: CurlTransport())
        .get().metrics
      #expect(metrics.bytesSent == 1_000)
      let head = try #require(metrics.requestHeaderBytes)
      #expect(head > 20 && head < 1_000)
    #endif
  }
}

#if os(Linux)
  /// The TLS phase, on hypercorn over TLS: a new connection shows its handshake after its TCP
  /// connect; a reused one shows neither.
  @Suite(.timeLimit(.minutes(2)), .needs(.hypercorn))
  struct TLSTransferMetricsTests {
    @Test func aNewTLSConnectionShowsItsHandshakeAndAReusedOneNone() async throws {
      let transport = try CurlTransport(
        tls: TLSConfiguration(trustedCertificates: [.file(TLSServer.shared.caFile)]))
      let url = TLSServer.shared.secureURL("/get")
      let first = try await exchange(url, over: transport).get().metrics
      let connected = try #require(first.connectEnd)
      let handshake = try #require(first.secureConnectionEnd)
      #expect(handshake > connected)
      #expect(first.protocolVersion == "HTTP/2")
      #expect(first.isReusedConnection == false)
      #expect(first.remotePort == TLSServer.shared.port)

      let second = try await exchange(url, over: transport).get().metrics
      #expect(second.isReusedConnection == true)
      #expect(second.connectEnd == nil)
      #expect(second.secureConnectionEnd == nil)
      #expect(second.protocolVersion == "HTTP/2")
    }
  }
#endif

/// A call's metrics against a real server, through the whole pipeline, on both transports.
@Suite(.timeLimit(.minutes(2)), .needs(.httpbin))
struct CallMetricsIntegrationTests {
  private struct Redirected: RequestDescribing {
    typealias Response = DataResponse
    var method: HTTPMethod { .get }
    var path: String { "redirect/2" }
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aRedirectedCallCountsItsHopsAndKeepsTheLastTransfer(_ kind: TransportUnderTest)
    async throws
  {
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .staging, baseURL: HTTPBin.shared.baseURL),
      transport: try kind.make())
    let answer = try await connection.execute(Redirected())
    let metrics = try #require(answer.metrics)
    #expect(metrics.attempts == 1)
    #expect(metrics.redirects == 2)
    #expect(metrics.transfers.count == 1)
    #expect(metrics.duration >= (metrics.lastTransfer?.duration ?? .infinity))
  }

  @Test(arguments: TransportUnderTest.allCases)
  func aTraceparentReachesTheServer(_ kind: TransportUnderTest) async throws {
    struct Headers: RequestDescribing {
      typealias Response = JSONResponse<[String: [String: String]]>
      var method: HTTPMethod { .get }
      var path: String { "headers" }
    }
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .staging, baseURL: HTTPBin.shared.baseURL),
      transport: try kind.make())
    let trace = TraceContext.newTrace()
    let answer = try await TraceContext.$current.withValue(trace) {
      try await connection.execute(Headers())
    }
    let echoed = try #require(answer.value["headers"]?["Traceparent"])
    let sent = try TraceContext(traceparent: echoed)
    #expect(sent.traceID == trace.traceID)
    #expect(sent.parentID != trace.parentID)
  }
}
