import Foundation
import Testing

@Suite("democli watch")
struct WatchTests {
  @Test func watchPrintsOneJSONObjectPerEventAndCarriesOnAfterADrop() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let running = try sandbox.start(["watch", "--simulate", "--json"])
    // The simulator drops the connection after 5 events; the 7th comes after the reconnection.
    let seventh = try await running.waitForStdout(20) { $0.contains(#""eventId":"7""#) }
    #expect(seventh)
    running.interrupt()
    let result = await running.result()
    #expect(result.status == 130)
    #expect(result.stderr.contains("Connection lost; reconnecting"))
    let lines = result.stdout.split(separator: "\n")
    let events = try lines.map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        "not a JSON object: \(line)")
    }
    #expect(events.count >= 7)
    // Resumed after the last id, so none is missed or repeated.
    #expect(events.map { $0["id"] as? Int } == Array(1...events.count))
    #expect(events.allSatisfy { $0["type"] as? String == "place-update" && $0["name"] != nil })
  }

  @Test func anExpiredTokenIsRenewedWhenTheFeedReconnects() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let saved = try Data(contentsOf: sandbox.sessionFile())
    let running = try sandbox.start(["watch", "--scenario", "token-expired", "--verbose"])
    let sixth = try await running.waitForStdout(20) { $0.contains("#6 ") }
    #expect(sixth)
    running.interrupt()
    let result = await running.result()
    #expect(result.status == 130)
    // Renewed for the first connection and again for the reconnection the server refused.
    #expect(result.stderr.components(separatedBy: "AccessTokenRefresh → restart").count == 3)
    let renewed = try Data(contentsOf: sandbox.sessionFile())
    #expect(renewed != saved)
    // The event log shows the renewal, never the tokens it brought.
    let session = try JSONSerialization.jsonObject(with: renewed) as? [String: Any]
    let token = try #require(session?["accessToken"] as? [String: Any])
    for secret in [token["value"] as? String, token["refreshToken"] as? String] {
      let secret = try #require(secret)
      #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
    }
    #expect(!result.stderr.contains("log in again"))
  }

  @Test func watchingWithoutALoginSaysToLogIn() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("watch", "--simulate")
    #expect(result.status == 77)
    #expect(result.stderr.contains("democli login"))
  }
}
