import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct LoggerTests {
  private static let jwt =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTkwMDAwMDAwMH0.c2lnbmF0dXJlLXNlY3JldA"

  private static let call = ConvoyEvent.CallIdentity(id: 7, jobID: 2, method: .get)

  private static let received = ConvoyEvent(
    .responseReceived(
      .init(
        call: call, url: URL(string: "https://api.example.com/v2/places?page=2")!, attempt: 1,
        status: 200, bytes: 1_234, duration: 0.0382)),
    date: Date(timeIntervalSince1970: 1_800_000_000.25))

  @Test func jsonLinesParseBackWithStableFieldNames() throws {
    let lines = Locked<[Data]>([])
    let logger = JSONLinesLogger { data in lines.withLock { $0.append(data) } }
    logger.receive(Self.received)
    logger.receive(
      ConvoyEvent(
        .requestFailed(
          .init(
            call: Self.call, url: nil, status: 500, reason: "HTTP 500",
            errorCategory: .serverFailure, duration: 0.1))))
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

  @Test func secretsAreRedactedInWhatTheLoggersWrite() throws {
    let event = ConvoyEvent(
      .requestAdapted(
        .init(
          call: Self.call, url: URL(string: "https://h.example/cb?code=abc123&state=x")!,
          attempt: 1,
          headers: [
            "Authorization": "Bearer \(Self.jwt)", "Cookie": "sid=s3ss10n", "Accept": "*/*",
          ])))
    let failure = ConvoyEvent(
      .requestFailed(
        .init(
          call: Self.call, url: nil, status: 400,
          reason: #"{"access_token":"\#(Self.jwt)","password":"hunter2"}"#,
          errorCategory: .invalidInput, duration: 0.1)))
    for event in [event, failure] {
      let json = String(decoding: JSONLinesLogger.encode(event), as: UTF8.self)
      let console = ConsoleLogger.line(for: event)
      for text in [json, console] {
        #expect(!text.contains(Self.jwt))
        #expect(!text.contains("s3ss10n"))
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("abc123"))
      }
    }
    #expect(String(decoding: JSONLinesLogger.encode(event), as: UTF8.self).contains("*/*"))
  }

  @Test func aReasonFromTheServerCannotStartALineOrDriveTheTerminal() {
    let failure = ConvoyEvent(
      .requestFailed(
        .init(
          call: Self.call, url: nil, status: 400,
          reason: "bad\r\n[convoy] INFO  #9 ← 200\u{1B}[2J\u{2028}end\tok",
          errorCategory: .invalidInput, duration: 0.1)))
    let line = ConsoleLogger.line(for: failure)
    #expect(
      line == #"#7 failed (invalidInput): bad\r\n[convoy] INFO  #9 ← 200\u{1B}[2J\u{2028}end"#
        + "\tok")
  }

  @Test func consoleLinesRespectTheLevel() {
    let lines = Locked<[String]>([])
    let logger = ConsoleLogger(level: .warning) { line in lines.withLock { $0.append(line) } }
    logger.receive(Self.received)
    logger.receive(
      ConvoyEvent(
        .requestRetried(
          .init(
            call: Self.call, url: URL(string: "https://api.example.com/v2/places")!, attempt: 1,
            delay: 0.5, reason: "status 503"))))
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

  // A quote followed by a combining mark is one character: escaping by characters left it
  // unescaped, and the rest of the text ran as shell commands when the line was pasted.
  @Test func aQuoteBeforeACombiningMarkStaysInsideTheShellQuote() throws {
    var request = URLRequest(url: URL(string: "https://h.example/p")!)
    let value = "x'\u{301}; echo pwned '"
    request.setValue(value, forHTTPHeaderField: "X-Note")
    let command = CURLRendering.command(for: request)
    let header = try #require(
      command.components(separatedBy: " \\\n  ").first { $0.hasPrefix("-H ") })
    #expect(Self.shellWord(String(header.dropFirst(3))) == "X-Note: " + value)
  }

  /// What a POSIX shell makes of one word written with single quotes and `\'`; `nil` when it is
  /// not one such word (a quote left open, or anything outside the quotes but `\'`).
  private static func shellWord(_ word: String) -> String? {
    var result = ""
    var isQuoted = false
    var scalars = word.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch (isQuoted, scalar) {
      case (_, "'"): isQuoted.toggle()
      case (true, _): result.unicodeScalars.append(scalar)
      case (false, "\\"):
        guard let escaped = scalars.next() else { return nil }
        result.unicodeScalars.append(escaped)
      default: return nil
      }
    }
    return isQuoted ? nil : result
  }
}

@Suite struct NetworkActivityCounterTests {
  private static func call(_ id: Int) -> ConvoyEvent.CallIdentity {
    ConvoyEvent.CallIdentity(id: UInt64(id), method: .get)
  }

  private static func created(_ id: Int) -> ConvoyEvent {
    ConvoyEvent(.requestCreated(.init(call: call(id), url: nil)))
  }

  private static func finished(_ id: Int) -> ConvoyEvent {
    ConvoyEvent(.requestFinished(.init(call: call(id), url: nil, status: 200, duration: 0)))
  }

  private static func cancelled(_ id: Int) -> ConvoyEvent {
    ConvoyEvent(.requestCancelled(.init(call: call(id), url: nil, duration: 0)))
  }

  private static func failed(_ id: Int) -> ConvoyEvent {
    ConvoyEvent(
      .requestFailed(
        .init(
          call: call(id), url: nil, status: nil, reason: "offline", errorCategory: .offline,
          duration: 0)))
  }

  @Test func countsCallsInFlightAndNeverGoesNegative() {
    let counter = NetworkActivityCounter()
    counter.receive(Self.created(1))
    counter.receive(Self.created(2))
    #expect(counter.count == 2)
    counter.receive(Self.cancelled(1))
    counter.receive(Self.cancelled(1))
    counter.receive(Self.failed(99))
    #expect(counter.count == 1)
    counter.receive(Self.finished(2))
    #expect(counter.count == 0)
    #expect(!counter.isActive)
  }

  @Test func staysRightUnderConcurrentStartsAndEnds() async {
    let counter = NetworkActivityCounter()
    await withTaskGroup(of: Void.self) { group in
      for id in 0..<1_000 {
        group.addTask {
          counter.receive(Self.created(id))
          counter.receive(id.isMultiple(of: 2) ? Self.cancelled(id) : Self.finished(id))
        }
      }
    }
    #expect(counter.count == 0)
  }

  @Test func publishesChanges() async {
    let counter = NetworkActivityCounter()
    let counts = counter.counts()
    counter.receive(Self.created(1))
    counter.receive(Self.finished(1))
    var iterator = counts.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 0)
  }
}
