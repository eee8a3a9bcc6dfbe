import Convoy
import Foundation
import Testing

/// Jobs against a real HTTP server (httpbin on loopback) through URLSession.
@Suite(.timeLimit(.minutes(2)), .needs(.httpbin)) struct JobsIntegrationTests {
  struct UUIDAnswer: Decodable, Sendable { var uuid: String }
  struct UUIDRequest: RequestDescribing {
    typealias Response = JSONResponse<UUIDAnswer>
    var method: HTTPMethod { .get }
    var path: String { "uuid" }
  }

  struct Echo: Decodable, Sendable { var json: [String: String]? }
  struct ExchangeRequest: RequestDescribing {
    typealias Response = JSONResponse<Echo>
    var secret: String
    var method: HTTPMethod { .post }
    var path: String { "anything/token" }
    var body: RequestBody? { .json(["access_token": "token-\(secret)"]) }
  }

  struct BearerAnswer: Decodable, Sendable { var authenticated: Bool, token: String }
  struct BearerRequest: RequestDescribing {
    typealias Response = JSONResponse<BearerAnswer>
    var token: String
    var method: HTTPMethod { .get }
    var path: String { "bearer" }
    var headers: HTTPHeaders { ["Authorization": "Bearer \(token)"] }
  }

  /// Client secret → access token → session, against httpbin's echo endpoints.
  struct HTTPBinLoginJob: Job {
    func makeOperation(on connection: ServerConnection) -> ResultOperation<BearerAnswer> {
      connection.operation(for: UUIDRequest())
        .then { secret in connection.operation(for: ExchangeRequest(secret: secret.value.uuid)) }
        .then { echo in
          connection.operation(for: BearerRequest(token: echo.value.json?["access_token"] ?? ""))
        }
        .map(\.value)
    }
  }

  struct TogetherGroupJob: Job {
    var count: Int
    func makeOperation(on connection: ServerConnection) -> ResultOperation<[DataResponse]> {
      let key = UUID().uuidString
      return GroupOperation(
        (0..<count).map { _ in
          connection.operation(for: FaultServer.TogetherCall(key: key, count: count))
        })
    }
  }

  /// A connection of the test's own: the suite's tests run in parallel, and on one shared
  /// connection the slow calls of one test took network slots another test's timing depends on.
  private func connection() -> ServerConnection {
    ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: HTTPBin.shared.baseURL))
  }

  @Test func aChainPassesEachRealAnswerToTheNextRequest() async throws {
    let answer = try await connection().run(HTTPBinLoginJob())
    #expect(answer.authenticated)
    #expect(answer.token.hasPrefix("token-"))
    #expect(answer.token.count > "token-".count + 30)
  }

  @Test func aGroupRunsItsCallsSideBySide() async throws {
    // The fault server answers each call only once all six are held at once (504 after 10 s
    // otherwise): the group must have them in flight together. Six is the connection's default
    // network limit. A clock would prove the same only on an idle machine.
    let connection = ServerConnection(configuration: .local(port: FaultServer.shared.port))
    let answers = try await connection.run(TogetherGroupJob(count: 6))
    #expect(answers.map(\.response.statusCode) == Array(repeating: 200, count: 6))
  }

  @Test func cancellingMidFlightEndsTheJobAsCancelled() async throws {
    // Three calls to a server that never answers: only the token can end the job, and it is
    // cancelled once the server holds all three requests, whatever the machine's load.
    let silent = ServerConnection(configuration: .local(port: FaultServer.shared.port))
    let calls = (0..<3).map { _ in FaultServer.FaultCall(fault: .neverAnswers) }
    let completed = OneShot<(any Error)?>()
    let token = silent.run(
      SilentGroupJob(calls: calls), completionQueue: DispatchQueue(label: "integration")
    ) { completed.fulfil($0.failure) }
    for call in calls { try await FaultServer.shared.waitForRequest(key: call.key) }
    token.cancel()
    let error = await completed.value()
    #expect(error?.isCancellation == true)
  }

  @Test func aJobDeadlineStopsRealTransfers() async throws {
    struct SilentJob: Job {
      var timeout: TimeInterval? { 0.5 }
      func makeOperation(on connection: ServerConnection) -> ResultOperation<DataResponse> {
        connection.operation(for: FaultServer.FaultCall(fault: .neverAnswers))
      }
    }
    // The server never answers: only the job's deadline can end it.
    let silent = ServerConnection(configuration: .local(port: FaultServer.shared.port))
    await #expect {
      _ = try await silent.run(SilentJob())
    } throws: { error in
      if case .timedOut = error as? ServerConnectionError { return true }
      return false
    }
  }
}

/// A group of calls to the fault server, side by side.
private struct SilentGroupJob: Job {
  var calls: [FaultServer.FaultCall]
  func makeOperation(on connection: ServerConnection) -> ResultOperation<[DataResponse]> {
    GroupOperation(calls.map { connection.operation(for: $0) })
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
