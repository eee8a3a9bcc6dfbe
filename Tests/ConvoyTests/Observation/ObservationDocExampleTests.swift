import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The samples of Docs/Observation.md and of ConvoyEvent's doc comment, verbatim inside these
// namespaces, so the documented code keeps compiling; the tests run them on a stubbed
// connection.

extension ServerConfiguration {
  fileprivate static let staging = ServerConfiguration(
    environment: .staging, baseURL: URL(string: "https://staging.example.com/api/")!)
}

private enum ObservationDoc {
  static func makeConnection(analyticsFile: FileHandle) -> (
    ServerConnection, NetworkActivityCounter
  ) {
    let activity = NetworkActivityCounter()
    let connection = ServerConnection(
      configuration: .staging,
      observers: [
        ConsoleLogger(level: .info), JSONLinesLogger(fileHandle: analyticsFile), activity,
      ])
    return (connection, activity)
  }

  static let analytics = AnyEventObserver { event in
    switch event.kind {
    case .responseReceived(let response):
      print("#\(response.call.id) \(response.call.method) \(response.url) → \(response.status)")
    case .decisionTaken(let decision) where decision.outcome == .retry:
      print("\(decision.decision) asked to retry #\(decision.call.id)")
    case .requestFailed(let failure):
      print("#\(failure.call.id) failed (\(failure.errorCategory)): \(failure.reason)")
    case .jobProgress(let progress):
      print("\(progress.job.name): \(progress.completedUnits) of \(progress.totalUnits)")
    case .notice(let notice):
      print(notice.text)
    default:
      break
    }
  }

  struct SlowCallReporter: EventObserver {
    var limit: TimeInterval = 2

    func receive(_ event: ConvoyEvent) {
      guard case .requestFinished(let finished) = event.kind, finished.duration > limit else {
        return
      }
      print("slow: #\(finished.call.id) \(finished.url ?? "-") took \(finished.duration) s")
    }
  }

  static func printCURL(_ urlRequest: URLRequest) {
    print(CURLRendering.command(for: urlRequest))
  }
}

// The sample of ConvoyEvent's doc comment.
private enum ConvoyEventDoc {
  static let observer = AnyEventObserver { event in
    switch event.kind {
    case .responseReceived(let response):
      print("#\(response.call.id) ← \(response.status) in \(response.duration) s")
    case .requestFailed(let failure):
      print("#\(failure.call.id) failed (\(failure.errorCategory)): \(failure.reason)")
    default:
      break
    }
  }
}

@Suite struct ObservationDocExampleTests {
  private struct Thing: RequestDescribing {
    typealias Response = DataResponse
    var method: HTTPMethod { .get }
    var path: String { "thing" }
  }

  @Test func theDocumentedObserversSeeACall() async throws {
    let seen = Locked<[ConvoyEvent.Name]>([])
    let connection = ServerConnection(
      configuration: .staging, transport: StubTransport { _ in .status(200) },
      observers: [
        ObservationDoc.analytics, ObservationDoc.SlowCallReporter(limit: 0),
        ConvoyEventDoc.observer,
        AnyEventObserver { event in seen.withLock { $0.append(event.name) } },
      ])
    _ = try await connection.execute(Thing())
    #expect(seen.current.first == .requestCreated)
    #expect(seen.current.last == .requestFinished)
  }

  @Test func theDocumentedConnectionStartsIdle() throws {
    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
    defer { try? file.close() }
    let (_, activity) = ObservationDoc.makeConnection(analyticsFile: file)
    #expect(!activity.isActive)
  }
}
