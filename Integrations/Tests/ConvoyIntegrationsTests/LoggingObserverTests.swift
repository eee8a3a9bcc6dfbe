import Convoy
import ConvoyLogging
import ConvoyTesting
import Foundation
import InMemoryLogging
import Logging
import Testing

@Suite struct LoggingObserverTests {
  private func logged(
    level: Logger.Level = .debug, retries: Int = 2, _ answer: StubAnswer
  ) async -> [InMemoryLogHandler.Entry] {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test", factory: { _ in handler })
    logger.logLevel = level
    let (connection, _) = stubbedConnection(
      observers: [LoggingObserver(logger: logger)], retries: retries, answer)
    _ = try? await connection.execute(Places())
    return handler.entries
  }

  @Test func eachEventIsLoggedAtConvoysLevelWithItsFieldsAsMetadata() async throws {
    let entries = await logged(.json(["n": 1]))
    let names = entries.compactMap { $0.metadata["event"].map { "\($0)" } }
    #expect(names.first == "request.created")
    #expect(names.last == "request.finished")
    let finished = try #require(entries.last)
    #expect(finished.level == .info)
    #expect(finished.metadata["status"].map { "\($0)" } == "200")
    #expect(finished.metadata["method"] == "GET")
    #expect(finished.metadata["attempts"] == "1")
    #expect(finished.metadata["request_id"] != nil)
    let decisions = entries.filter { $0.metadata["event"] == "decision.taken" }
    #expect(!decisions.isEmpty && decisions.allSatisfy { $0.level == .debug })
  }

  @Test func secretsNeverReachTheLogHandler() async throws {
    let entries = await logged(.json(["n": 1]))
    for entry in entries {
      let text = "\(entry.message) \(entry.metadata)"
      #expect(!text.contains("tok-s3cret"), "\(text)")
    }
    let adapted = try #require(entries.first { $0.metadata["event"] == "request.adapted" })
    guard case .dictionary(let headers) = adapted.metadata["headers"] else {
      Issue.record("no headers: \(adapted.metadata)")
      return
    }
    #expect(headers["Authorization"] == "\(SecretRedactor.mask)")
    #expect("\(adapted.metadata["url"] ?? "")".contains("page=2"))
  }

  @Test func retriesAreWarningsAndFailuresErrors() async throws {
    let entries = await logged(retries: 1, .status(503))
    let retried = try #require(entries.first { $0.metadata["event"] == "request.retried" })
    #expect(retried.level == .warning)
    let failed = try #require(entries.last)
    #expect(failed.metadata["event"] == "request.failed")
    #expect(failed.level == .error)
    #expect(failed.metadata["error_category"] == "serverFailure")
    #expect(failed.metadata["attempts"] == "2")
  }

  @Test func theLoggersLevelFiltersBeforeAnyEntryIsMade() async throws {
    let entries = await logged(level: .warning, .json(["n": 1]))
    #expect(entries.isEmpty)
  }
}
