import Convoy
import Foundation
import Testing

/// Jobs against a real HTTP server (httpbin on loopback) through URLSession.
@Suite(.needs(.httpbin)) struct JobsIntegrationTests {
  struct Delay: RequestDescribing {
    typealias Response = DataResponse
    var seconds: Int
    var method: HTTPMethod { .get }
    var path: String { "delay/\(seconds)" }
  }

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

  struct DelayGroupJob: Job {
    var count: Int
    var seconds: Int
    func makeOperation(on connection: ServerConnection) -> ResultOperation<[DataResponse]> {
      GroupOperation((0..<count).map { _ in connection.operation(for: Delay(seconds: seconds)) })
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

  @Test func cancellingMidFlightReturnsPromptly() async throws {
    let connection = connection()
    let completed = Completion()
    let token = connection.run(
      DelayGroupJob(count: 3, seconds: 10), completionQueue: DispatchQueue(label: "integration")
    ) { completed.record($0.failure) }
    try await Task.sleep(nanoseconds: 500_000_000)
    let cancelledAt = Date()
    token.cancel()
    let error = await completed.wait(seconds: 12)
    let elapsed = Date().timeIntervalSince(cancelledAt)
    #expect(error?.isCancellation == true)
    // Left running, the calls would end 9.5 s after the cancel; the bound leaves a loaded
    // machine under ThreadSanitizer room without blurring that difference.
    #expect(elapsed < 7, "took \(elapsed) s after cancel")
  }

  @Test func aJobDeadlineStopsRealTransfers() async {
    struct SlowJob: Job {
      var timeout: TimeInterval? { 0.5 }
      func makeOperation(on connection: ServerConnection) -> ResultOperation<DataResponse> {
        connection.operation(for: Delay(seconds: 10))
      }
    }
    let start = Date()
    do {
      _ = try await connection().run(SlowJob())
      Issue.record("a 10 s call finished inside a 0.5 s job deadline")
    } catch {
      guard case .timedOut? = error as? ServerConnectionError else {
        Issue.record("expected a timeout, got \(error)")
        return
      }
    }
    // The 10 s call, left running, would end at 10 s.
    #expect(Date().timeIntervalSince(start) < 7)
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// A one-shot value a callback sets and a test waits for, with a bound.
private final class Completion: @unchecked Sendable {
  private let lock = NSLock()
  private var error: (any Error)?
  private var isSet = false

  func record(_ error: (any Error)?) {
    lock.withLock {
      self.error = error
      isSet = true
    }
  }

  func wait(seconds: Double) async -> (any Error)? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let done = lock.withLock({ isSet ? Optional(error) : nil }) { return done }
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return nil
  }
}
