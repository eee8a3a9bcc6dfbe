import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct LoggerTests {
  private static let jwt =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTkwMDAwMDAwMH0.c2lnbmF0dXJlLXNlY3JldA"

  private static let received = ConvoyEvent(
    name: .responseReceived, date: Date(timeIntervalSince1970: 1_800_000_000.25), requestID: 7,
    jobID: 2, method: "GET", url: "https://api.example.com/v2/places?page=2", attempt: 1,
    status: 200, bytes: 1_234, duration: 0.0382)

  @Test func jsonLinesParseBackWithStableFieldNames() throws {
    let lines = Locked<[Data]>([])
    let logger = JSONLinesLogger { data in lines.withLock { $0.append(data) } }
    logger.receive(Self.received)
    logger.receive(
      ConvoyEvent(
        name: .requestFailed, requestID: 7, reason: "HTTP 500", errorCategory: .serverFailure))
    let written = lines.current
    #expect(written.count == 2)
    #expect(written.allSatisfy { $0.last == 0x0A && !$0.dropLast().contains(0x0A) })
    let object = try #require(try JSONSerialization.jsonObject(with: written[0]) as? [String: Any])
    #expect(object["event"] as? String == "response.received")
    #expect(object["request_id"] as? Int == 7)
    #expect(object["job_id"] as? Int == 2)
    #expect(object["status"] as? Int == 200)
    #expect(object["bytes"] as? Int == 1_234)
    #expect(object["duration_ms"] as? Double == 38.2)
    #expect(object["ts"] as? String == "2027-01-15T08:00:00.250Z")
    #expect(object["reason"] == nil)
    let failure = try #require(try JSONSerialization.jsonObject(with: written[1]) as? [String: Any])
    #expect(failure["error_category"] as? String == "serverFailure")
  }

  @Test func secretsAreRedactedInEveryEvent() throws {
    let event = ConvoyEvent(
      name: .requestAdapted, requestID: 1, url: "https://h.example/cb?code=abc123&state=x",
      headers: ["Authorization": "Bearer \(Self.jwt)", "Cookie": "sid=s3ss10n", "Accept": "*/*"],
      reason: #"{"access_token":"\#(Self.jwt)","password":"hunter2"}"#)
    let json = String(decoding: JSONLinesLogger.encode(event), as: UTF8.self)
    let console = ConsoleLogger.line(for: event)
    for text in [json, console] {
      #expect(!text.contains(Self.jwt))
      #expect(!text.contains("s3ss10n"))
      #expect(!text.contains("hunter2"))
      #expect(!text.contains("abc123"))
    }
    #expect(json.contains("*/*"))
  }

  @Test func consoleLinesRespectTheLevel() {
    let lines = Locked<[String]>([])
    let logger = ConsoleLogger(level: .warning) { line in lines.withLock { $0.append(line) } }
    logger.receive(Self.received)
    logger.receive(
      ConvoyEvent(
        name: .requestRetried, requestID: 7, attempt: 1, retryDelay: 0.5, reason: "status 503"))
    #expect(lines.current == ["[convoy] WARN  #7 retry 1 in 0.5 s: status 503"])
    #expect(ConsoleLogger.line(for: Self.received) == "#7 ← 200, 1.2 KB in 38 ms")
  }

  @Test func curlCommandsQuoteSafelyAndRedactByDefault() {
    var request = URLRequest(url: URL(string: "https://h.example/p?q=it's&token=t0p")!)
    request.httpMethod = "POST"
    request.setValue("Bearer \(Self.jwt)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"name":"O'Brien","password":"hunter2"}"#.utf8)
    let command = CURLRendering.command(for: request)
    #expect(command.hasPrefix("curl \\\n  -X POST"))
    #expect(command.contains(#"'{"name":"O'\''Brien","password":"<redacted>"}'"#))
    #expect(!command.contains(Self.jwt))
    #expect(!command.contains("t0p"))
    #expect(command.contains("-H 'Content-Type: application/json'"))
    let raw = CURLRendering.command(for: request, redactingSecrets: false)
    #expect(raw.contains(Self.jwt))
  }
}

@Suite struct NetworkActivityCounterTests {
  @Test func countsCallsInFlightAndNeverGoesNegative() {
    let counter = NetworkActivityCounter()
    counter.receive(ConvoyEvent(name: .requestCreated, requestID: 1))
    counter.receive(ConvoyEvent(name: .requestCreated, requestID: 2))
    #expect(counter.count == 2)
    counter.receive(ConvoyEvent(name: .requestCancelled, requestID: 1))
    counter.receive(ConvoyEvent(name: .requestCancelled, requestID: 1))
    counter.receive(ConvoyEvent(name: .requestFailed, requestID: 99))
    #expect(counter.count == 1)
    counter.receive(ConvoyEvent(name: .requestFinished, requestID: 2))
    #expect(counter.count == 0)
    #expect(!counter.isActive)
  }

  @Test func staysRightUnderConcurrentStartsAndEnds() async {
    let counter = NetworkActivityCounter()
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<1_000 {
        group.addTask {
          counter.receive(ConvoyEvent(name: .requestCreated, requestID: UInt64(id)))
          counter.receive(
            ConvoyEvent(
              name: id.isMultiple(of: 2) ? .requestCancelled : .requestFinished,
              requestID: UInt64(id)))
        }
      }
    }
    #expect(counter.count == 0)
  }

  @Test func publishesChanges() async {
    let counter = NetworkActivityCounter()
    let counts = counter.counts()
    counter.receive(ConvoyEvent(name: .requestCreated, requestID: 1))
    counter.receive(ConvoyEvent(name: .requestFinished, requestID: 1))
    var iterator = counts.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 0)
  }
}

@Suite struct EventRedactionTests {
  @Test func fieldsSetAfterCreationAreRedactedToo() {
    var event = ConvoyEvent(name: .notice)
    event.url = "https://u:pw@h.example/x?access_token=abc"
    event.headers = ["Authorization": "Bearer abc"]
    event.reason = #"{"refresh_token":"abc"}"#
    #expect(event.url?.contains("abc") == false)
    #expect(event.url?.contains("pw@") == false)
    #expect(event.headers?["Authorization"] == SecretRedactor.mask)
    #expect(event.reason?.contains("abc") == false)
  }
}
