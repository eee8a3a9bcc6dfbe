#if os(Linux)
  import Foundation
  import Testing

  // The simulator's live channel is a WebSocket, which democli opens with CurlTransport: Linux.
  @Suite("democli live")
  struct LiveTests {
    @Test func liveSendsItsMessageAndClosesNormallyAfterCountUpdates() async throws {
      let sandbox = try DemoCLISandbox()
      #expect(try await sandbox.run("login", "--simulate").status == 0)
      let result = try await sandbox.run(
        "live", "--env", "staging", "--simulate", "--send", #"{"subscribe": "Vienna"}"#,
        "--count", "2", "--json")
      #expect(result.status == 0)
      let messages = try result.stdout.split(separator: "\n").map { line in
        try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          "not a JSON object: \(line)")
      }
      #expect(messages.first?["type"] as? String == "welcome")
      let subscribed = try #require(
        messages.firstIndex { $0["type"] as? String == "subscribed" }, "no answer to --send")
      #expect(messages[subscribed]["city"] as? String == "Vienna")
      let updates = messages.filter { $0["type"] as? String == "place-update" }
      #expect(updates.count == 2)
      // The updates after the subscription are Vienna's only.
      let later = messages[subscribed...].filter { $0["type"] as? String == "place-update" }
      #expect(later.allSatisfy { $0["city"] as? String == "Vienna" })
      #expect(
        result.stderr.contains("Closed the live channel after 2 updates (1000 normal closure)."))
    }

    @Test func liveShowsTheServersAnswerToWhatItSends() async throws {
      let sandbox = try DemoCLISandbox()
      #expect(try await sandbox.run("login", "--simulate").status == 0)
      let result = try await sandbox.run(
        "live", "--simulate", "--send", "hello from democli", "--count", "1")
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("Connected as "))
      #expect(result.stdout.contains("The server received: hello from democli\n"))
      #expect(result.stdout.contains("#1 Harbour Promenade, Hamburg: "))
    }

    @Test func ctrlCOnATerminalClosesTheChannelWith1001AndExits130() async throws {
      let sandbox = try DemoCLISandbox()
      #expect(try await sandbox.run("login", "--simulate").status == 0)
      let terminal = try PseudoTerminal()
      let running = try sandbox.start(
        ["live", "--env", "staging", "--simulate"], terminal: terminal)
      // An update arrived, so the channel is open when the interrupt lands.
      #expect(await terminal.read(until: "#1 Harbour Promenade"))
      running.interrupt()
      let result = await running.result()
      #expect(result.status == 130)
      #expect(await terminal.read(until: "Interrupted: closed the live channel (1001 going away)."))
      #expect(!terminal.transcript.contains("cancelled"))
    }

    @Test func aCloseByTheServerIsNamedWithItsCodeAndReason() async throws {
      let sandbox = try DemoCLISandbox()
      #expect(try await sandbox.run("login", "--simulate").status == 0)
      let result = try await sandbox.run(
        "live", "--simulate", "--send", #"{"close": "see you later"}"#)
      #expect(result.status == 0)
      #expect(
        result.stderr.contains(
          "The server closed the live channel (1000 normal closure): see you later."))
    }

    @Test func liveWithoutALoginSaysToLogIn() async throws {
      let sandbox = try DemoCLISandbox()
      let result = try await sandbox.run("live", "--simulate")
      #expect(result.status == 77)
      #expect(result.stderr.contains("democli login"))
    }

    @Test func aCountThatIsNotAPositiveNumberIsAUsageError() async throws {
      let sandbox = try DemoCLISandbox()
      let result = try await sandbox.run("live", "--simulate", "--count", "0")
      #expect(result.status == 64)
      #expect(result.stderr.contains("--count"))
    }
  }
#endif
