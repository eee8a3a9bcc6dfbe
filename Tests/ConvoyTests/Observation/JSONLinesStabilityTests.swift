import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The lines ``JSONLinesLogger`` writes are read by log pipelines: their keys, key sets per event
/// and value formats must not change unnoticed. Each golden line below was written by the logger
/// before events became typed (when they were one struct of optional fields), and must come out
/// byte for byte the same.
@Suite struct JSONLinesStabilityTests {
  private static let date = Date(timeIntervalSince1970: 1_800_000_000.25)
  private static let url = URL(string: "https://api.example.com/v2/places?page=2")!
  private static let call = ConvoyEvent.CallIdentity(id: 7, method: .get)
  private static let job = ConvoyEvent.JobIdentity(id: 2, name: "LoginJob")

  private static func line(_ event: ConvoyEvent) -> String {
    String(decoding: JSONLinesLogger.encode(event), as: UTF8.self)
  }

  @Test func everyKindOfCallEventWritesItsStableLine() {
    let events: [(ConvoyEvent, String)] = [
      (
        ConvoyEvent(
          .requestCreated(.init(call: .init(id: 7, jobID: 2, method: .get), url: Self.url)),
          date: Self.date),
        #"{"event":"request.created","job_id":2,"method":"GET","request_id":7,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestAdapted(
            .init(
              call: Self.call, url: Self.url, attempt: 1,
              headers: ["Accept": "application/json"])), date: Self.date),
        #"{"attempt":1,"event":"request.adapted","headers":{"Accept":"application/json"},"#
          + #""method":"GET","request_id":7,"ts":"2027-01-15T08:00:00.250Z","#
          + #""url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestSent(.init(call: Self.call, url: Self.url, attempt: 2)), date: Self.date),
        #"{"attempt":2,"event":"request.sent","method":"GET","request_id":7,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .responseReceived(
            .init(
              call: Self.call, url: Self.url, attempt: 1, status: 200, bytes: 1_234,
              duration: 0.03825)), date: Self.date),
        #"{"attempt":1,"bytes":1234,"duration_ms":38.3,"event":"response.received","#
          + #""method":"GET","request_id":7,"status":200,"ts":"2027-01-15T08:00:00.250Z","#
          + #""url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .decisionTaken(
            .init(
              call: Self.call, url: Self.url, attempt: 1, decision: "RetryDecision",
              outcome: .retry)), date: Self.date),
        #"{"attempt":1,"decision":"RetryDecision","event":"decision.taken","method":"GET","#
          + #""outcome":"retry","request_id":7,"ts":"2027-01-15T08:00:00.250Z","#
          + #""url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .decisionTaken(
            .init(
              call: .init(id: 7, method: .post), url: Self.url, attempt: 1,
              decision: "RetryDecision", outcome: .retry, isDeclined: true)), date: Self.date),
        #"{"attempt":1,"decision":"RetryDecision","event":"decision.taken","method":"POST","#
          + #""outcome":"retry declined: body not replayable","request_id":7,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestRetried(
            .init(call: Self.call, url: Self.url, attempt: 1, delay: 0.5, reason: "status 503")),
          date: Self.date),
        #"{"attempt":1,"event":"request.retried","method":"GET","reason":"status 503","#
          + #""request_id":7,"retry_delay_ms":500,"ts":"2027-01-15T08:00:00.250Z","#
          + #""url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestFinished(.init(call: Self.call, url: Self.url, status: 200, duration: 1.5)),
          date: Self.date),
        #"{"duration_ms":1500,"event":"request.finished","method":"GET","request_id":7,"#
          + #""status":200,"ts":"2027-01-15T08:00:00.250Z","#
          + #""url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestFailed(
            .init(
              call: Self.call, url: Self.url, status: 404, reason: "HTTP 404",
              errorCategory: .notFound, duration: 0.25)), date: Self.date),
        #"{"duration_ms":250,"error_category":"notFound","event":"request.failed","#
          + #""method":"GET","reason":"HTTP 404","request_id":7,"status":404,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestFailed(
            .init(
              call: Self.call, url: Self.url, status: nil, reason: "no connection",
              errorCategory: .offline, duration: 0.25)), date: Self.date),
        #"{"duration_ms":250,"error_category":"offline","event":"request.failed","#
          + #""method":"GET","reason":"no connection","request_id":7,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .requestCancelled(.init(call: Self.call, url: Self.url, duration: 0.0001)),
          date: Self.date),
        #"{"duration_ms":0.1,"event":"request.cancelled","method":"GET","request_id":7,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
      (
        ConvoyEvent(
          .streamReconnecting(
            .init(
              call: .init(id: 8, method: .get), url: Self.url, attempt: 2, delay: 3,
              reason: "the stream ended")), date: Self.date),
        #"{"attempt":2,"event":"stream.reconnecting","method":"GET","#
          + #""reason":"the stream ended","request_id":8,"retry_delay_ms":3000,"#
          + #""ts":"2027-01-15T08:00:00.250Z","url":"https://api.example.com/v2/places?page=2"}"#
      ),
    ]
    for (event, golden) in events {
      #expect(Self.line(event) == golden)
    }
  }

  @Test func everyKindOfJobEventAndTheNoticeWriteTheirStableLines() {
    let events: [(ConvoyEvent, String)] = [
      (
        ConvoyEvent(.jobStarted(.init(job: Self.job)), date: Self.date),
        #"{"event":"job.started","job_id":2,"job_name":"LoginJob","#
          + #""ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        ConvoyEvent(
          .jobProgress(.init(job: Self.job, completedUnits: 1, totalUnits: 2)), date: Self.date),
        #"{"completed_units":1,"event":"job.progress","job_id":2,"job_name":"LoginJob","#
          + #""total_units":2,"ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        ConvoyEvent(.jobFinished(.init(job: Self.job, duration: 2)), date: Self.date),
        #"{"duration_ms":2000,"event":"job.finished","job_id":2,"job_name":"LoginJob","#
          + #""ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        ConvoyEvent(
          .jobFailed(
            .init(
              job: Self.job, status: 401, reason: "HTTP 401", errorCategory: .wrongCredentials,
              duration: 2)), date: Self.date),
        #"{"duration_ms":2000,"error_category":"wrongCredentials","event":"job.failed","#
          + #""job_id":2,"job_name":"LoginJob","reason":"HTTP 401","status":401,"#
          + #""ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        ConvoyEvent(
          .jobFailed(
            .init(
              job: Self.job, status: nil, reason: "timed out", errorCategory: .timedOut,
              duration: 2)), date: Self.date),
        #"{"duration_ms":2000,"error_category":"timedOut","event":"job.failed","job_id":2,"#
          + #""job_name":"LoginJob","reason":"timed out","ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        ConvoyEvent(.jobCancelled(.init(job: Self.job, duration: 2)), date: Self.date),
        #"{"duration_ms":2000,"event":"job.cancelled","job_id":2,"job_name":"LoginJob","#
          + #""ts":"2027-01-15T08:00:00.250Z"}"#
      ),
      (
        .notice("fell back to URLSession", date: Self.date),
        #"{"event":"notice","reason":"fell back to URLSession","ts":"2027-01-15T08:00:00.250Z"}"#
      ),
    ]
    for (event, golden) in events {
      #expect(Self.line(event) == golden)
    }
  }

  /// The keys of every line a real call, job and stream write, after the event's name:
  /// whatever builds the events, the emitters must fill the same fields.
  private static func keys(of lines: [Data]) throws -> [String] {
    try lines.map { line in
      let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
      let event = try #require(object["event"] as? String)
      return "\(event): " + object.keys.filter { $0 != "event" }.sorted().joined(separator: ",")
    }
  }

  private static func recorder() -> (Locked<[Data]>, JSONLinesLogger) {
    let lines = Locked<[Data]>([])
    return (lines, JSONLinesLogger { data in lines.withLock { $0.append(data) } })
  }

  private struct Thing: RequestDescribing {
    typealias Response = JSONResponse<[String: Int]>
    var method: HTTPMethod { .get }
    var path: String { "thing" }
  }

  @Test func aRetriedThenFailedCallWritesTheSameKeysAsBefore() async throws {
    let (lines, logger) = Self.recorder()
    let attempts = Locked(0)
    var configuration = ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
    configuration.retryPolicy = RetryPolicy(maximumRetries: 1, baseDelay: 0, jitter: 0)
    let connection = ServerConnection(
      configuration: configuration,
      transport: StubTransport { _ in
        attempts.withLock { count in
          count += 1
          return count == 1 ? .status(503) : .json(["reason": "No such thing."], status: 404)
        }
      }, observers: [logger])
    _ = try? await connection.execute(Thing())
    let keys = try Self.keys(of: lines.current)
    #expect(
      keys == [
        "request.created: method,request_id,ts,url",
        "request.adapted: attempt,headers,method,request_id,ts,url",
        "request.sent: attempt,method,request_id,ts,url",
        "response.received: attempt,bytes,duration_ms,method,request_id,status,ts,url",
        "decision.taken: attempt,decision,method,outcome,request_id,ts,url",
        "request.retried: attempt,method,reason,request_id,retry_delay_ms,ts,url",
        "request.adapted: attempt,headers,method,request_id,ts,url",
        "request.sent: attempt,method,request_id,ts,url",
        "response.received: attempt,bytes,duration_ms,method,request_id,status,ts,url",
        "decision.taken: attempt,decision,method,outcome,request_id,ts,url",
        "decision.taken: attempt,decision,method,outcome,request_id,ts,url",
        "request.failed: duration_ms,error_category,method,reason,request_id,status,ts,url",
      ])
  }

  @Test func aJobAndItsCallsWriteTheSameKeysAsBefore() async throws {
    let (lines, logger) = Self.recorder()
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://staging.places.example/api/")!,
        authentication: SimulatedPlacesAPI.authentication),
      transport: SimulatedPlacesAPI(), observers: [logger])
    _ = try await connection.run(
      SimulatedPlacesAPI.LoginJob(email: "demo@convoy.example", password: "demo-password"))
    // Progress and calls interleave as the job's queues run them: compare the kinds of line.
    let keys = try Self.keys(of: lines.current)
    #expect(
      Set(keys) == [
        "job.started: job_id,job_name,ts",
        "job.progress: completed_units,job_id,job_name,total_units,ts",
        "request.created: job_id,method,request_id,ts,url",
        "request.adapted: attempt,headers,job_id,method,request_id,ts,url",
        "request.sent: attempt,job_id,method,request_id,ts,url",
        "response.received: attempt,bytes,duration_ms,job_id,method,request_id,status,ts,url",
        "decision.taken: attempt,decision,job_id,method,outcome,request_id,ts,url",
        "request.finished: duration_ms,job_id,method,request_id,status,ts,url",
        "job.finished: duration_ms,job_id,job_name,ts",
      ])
  }

  @Test func aStreamThatReconnectsWritesTheSameKeysAsBefore() async throws {
    let (lines, logger) = Self.recorder()
    let eventStream: HTTPHeaders = ["Content-Type": "text/event-stream"]
    let answers = StubAnswer.sequence([
      .response(status: 200, headers: eventStream, body: Data("data: a\n\n".utf8)),
      .status(204),
    ])
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://api.example.com/")!),
      transport: StubTransport { _ in answers }, observers: [logger])
    let options = EventStreamOptions(
      reconnectionDelay: 0.01, maximumReconnectionDelay: 0.05, maximumReconnections: 2)
    struct Feed: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "feed" }
    }
    for try await _ in connection.events(Feed(), options: options) {}
    let keys = try Self.keys(of: lines.current)
    #expect(
      Set(keys) == [
        "request.created: method,request_id,ts,url",
        "request.adapted: attempt,headers,method,request_id,ts,url",
        "request.sent: attempt,method,request_id,ts,url",
        "response.received: attempt,bytes,duration_ms,method,request_id,status,ts,url",
        "decision.taken: attempt,decision,method,outcome,request_id,ts,url",
        "request.finished: duration_ms,method,request_id,status,ts,url",
        "stream.reconnecting: attempt,method,reason,request_id,retry_delay_ms,ts,url",
      ])
    #expect(keys.filter { $0.hasPrefix("stream.reconnecting") }.count == 1)
  }
}
