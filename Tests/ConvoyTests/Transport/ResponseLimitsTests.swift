import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct ResponseLimitsTests {
  private func connection(body: Data, headers: HTTPHeaders = [:], limits: ResponseLimits)
    -> ServerConnection
  {
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/api/")!)
    configuration.responseLimits = limits
    let answer = StubAnswer.response(status: 200, headers: headers, body: body)
    return ServerConnection(
      configuration: configuration,
      transport: StubTransport(routes: StubRoutes().on(.get, "thing", answer: answer)))
  }

  @Test func aBufferedBodyOverTheLimitFailsAsTooLarge() async throws {
    let connection = connection(
      body: Data(count: 11), limits: ResponseLimits(maximumBodySize: 10))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "thing"))
    }
    let failure = transportFailure(in: error)
    #expect(failure?.kind == .responseTooLarge)
    #expect(failure?.detail.contains("maximumBodySize (10)") == true)
  }

  @Test func aBodyAtTheLimitArrives() async throws {
    let connection = connection(
      body: Data(count: 10), limits: ResponseLimits(maximumBodySize: 10))
    let response = try await connection.execute(RawStubCall(path: "thing"))
    #expect(response.data.count == 10)
  }

  @Test func aHeadWithTooManyFieldsFailsAsTooLarge() async throws {
    var headers = HTTPHeaders()
    for index in 0..<5 { headers.add(name: "X-Field-\(index)", value: "\(index)") }
    let connection = connection(
      body: Data(), headers: headers, limits: ResponseLimits(maximumHeaderFieldCount: 4))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "thing"))
    }
    #expect(transportFailure(in: error)?.kind == .responseTooLarge)
  }

  @Test func aTooLargeAnswerIsNotRetried() async throws {
    let transport = StubTransport(
      routes: StubRoutes().on(
        .get, "thing", answer: .response(status: 200, headers: [:], body: Data(count: 2))))
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/api/")!)
    configuration.responseLimits.maximumBodySize = 1
    let connection = ServerConnection(configuration: configuration, transport: transport)
    _ = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "thing"))
    }
    #expect(transport.requests.count == 1)
  }

  @Test func aRequestMayAllowMoreThanItsConfiguration() async throws {
    struct Export: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "thing" }
      var responseLimits: ResponseLimits? { ResponseLimits(maximumBodySize: 100) }
    }
    let connection = connection(body: Data(count: 50), limits: ResponseLimits(maximumBodySize: 10))
    let response = try await connection.execute(Export())
    #expect(response.data.count == 50)
    _ = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "thing"))
    }
  }

  @Test func theDefaultsAreGenerousAndNamed() {
    let limits = ResponseLimits()
    #expect(limits.maximumBodySize == 64 << 20)
    #expect(limits.maximumHeaderFieldCount == 1_000)
    #expect(limits.maximumHeadSize == 256 << 10)
    #expect(ServerConfiguration.local(port: 1).responseLimits == limits)
  }

  @Test func aTooLargeAnswerIsWordedForPeople() async throws {
    let connection = connection(body: Data(count: 2), limits: ResponseLimits(maximumBodySize: 1))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await connection.execute(RawStubCall(path: "thing"))
    }
    let message = try #require(error.flatMap { ErrorMessageProvider.standard.message(for: $0) })
    #expect(ErrorMessageProvider.category(of: try #require(error)) == .responseTooLarge)
    #expect(message.title == "Answer too large")
    #expect(message.text.contains("more than this app accepts"))
  }
}
