import Convoy
import ConvoyTesting
import Foundation
import Testing

/// Many calls with mixed faults, on both transports, in one process, against one mock server:
/// every call ends exactly once, each fault as the same category on every transport, while slow
/// answers hold the few network slots the others wait for.
@Suite struct MixedFaultStressTests {
  /// One kind of answer the server gives, and how the call must end.
  enum Behaviour: CaseIterable {
    case ok
    case slowHead
    case shortBody
    case resetBeforeHead
    case garbageStatus
    case notFound

    var path: String { "/\(self)" }

    var answer: MockAnswer {
      switch self {
      case .ok: return .text("fine")
      case .slowHead:
        var answer = MockAnswer.text("late but fine")
        answer.headDelay = .milliseconds(200)
        return answer
      case .shortBody:
        return MockAnswer.data(Data(count: 1000)).with(fault: .hangUpAfterBodyBytes(10))
      case .resetBeforeHead: return MockAnswer.text("never").with(fault: .resetBeforeHead)
      case .garbageStatus: return MockAnswer(body: .bytes(Data("x".utf8)), head: .garbageStatusLine)
      case .notFound: return .status(404)
      }
    }

    /// The category the failure must fall in; `nil` for a success.
    var category: ErrorCategory? {
      switch self {
      case .ok, .slowHead: nil
      case .shortBody, .resetBeforeHead: .serverUnreachable
      case .garbageStatus: .malformedResponse
      case .notFound: .notFound
      }
    }
  }

  struct Call: RequestDescribing {
    typealias Response = DataResponse
    var behaviour: Behaviour
    var method: HTTPMethod { .get }
    var path: String { behaviour.path }
  }

  @Test func mixedFaultsOnBothTransportsEndOnceEachAsTheSameCategory() async throws {
    let server = try await MockServer.started()
    for behaviour in Behaviour.allCases {
      var answer = behaviour.answer
      answer.closesConnection = true
      server.route(behaviour.path, answer: answer)
    }
    let limit = 2
    let connections = try MockServerTransportTests.Kind.allCases.map { kind in
      var configuration = ServerConfiguration(environment: .local, baseURL: server.baseURL)
      configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
      configuration.timeout = 60
      return ServerConnection(
        configuration: configuration, transport: try kind.transport(),
        networkConcurrencyLimit: limit)
    }
    let callsPerConnection = 60
    let outcomes = try await withThrowingTaskGroup(of: (Behaviour, ErrorCategory?).self) { group in
      for connection in connections {
        for index in 0..<callsPerConnection {
          let behaviour = Behaviour.allCases[index % Behaviour.allCases.count]
          group.addTask {
            do {
              _ = try await connection.execute(Call(behaviour: behaviour))
              return (behaviour, nil)
            } catch {
              return (behaviour, ErrorMessageProvider.category(of: error))
            }
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.count == connections.count * callsPerConnection)
    for (behaviour, category) in outcomes {
      #expect(
        category == behaviour.category, "\(behaviour) ended as \(String(describing: category))")
    }
    // Each call reached the server once: no retries, no duplicate sends.
    #expect(server.statistics.requestCount == connections.count * callsPerConnection)
    await server.shutdown()
  }
}
