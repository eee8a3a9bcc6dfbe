import ConvoyTestSupport
import Foundation
import Testing

/// `democli queue`: notes kept on disk while the simulated network is down, delivered once it is
/// back, once, also when a delivery was killed half-way.
@Suite("democli queue")
struct QueueTests {
  /// The notes the simulated server made, as its file holds them.
  private func serverNotes(_ sandbox: DemoCLISandbox) throws -> [[String: Any]] {
    let file = sandbox.stateDirectory.appendingPathComponent("democli/simulated-notes.json")
    guard let data = try? Data(contentsOf: file) else { return [] }
    return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
  }

  @Test func notesAddedOfflineWaitAndAreDeliveredWhenTheNetworkReturns() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let added = try await sandbox.run(
      "queue", "add", "3", "Lovely at sunset", "--simulate", "--offline")
    #expect(added.status == 0)
    #expect(added.stdout.contains("Queued note"))
    #expect(
      try await sandbox.run("queue", "add", "5", "Closed on Mondays", "--simulate", "--offline")
        .status == 0)
    #expect(try serverNotes(sandbox).isEmpty)

    let listed = try await sandbox.run("queue", "list", "--simulate")
    #expect(listed.stdout.components(separatedBy: "waiting").count == 3)
    #expect(listed.stdout.contains(#"place 3: "Lovely at sunset""#))

    let delivered = try await sandbox.run(
      "queue", "run", "--simulate", "--offline", "--online-after", "0.5")
    #expect(delivered.status == 0)
    #expect(delivered.stderr.contains("Offline: 2 notes wait for the network"))
    #expect(delivered.stdout.components(separatedBy: "delivered as note #").count == 3)
    #expect(
      try serverNotes(sandbox).map { $0["text"] as? String } == [
        "Lovely at sunset", "Closed on Mondays",
      ])
    #expect(
      try await sandbox.run("queue", "list", "--simulate").stdout.contains("The queue is empty."))
  }

  @Test func aDeliveryKilledAfterTheServerGotTheNoteIsRepeatedAndAppliedOnce() async throws {
    // Answers that take 30 s: the note reaches the server at once, its answer does not, and the
    // process is killed in between, as an app losing its answer to a crash.
    let sandbox = try DemoCLISandbox(extraEnvironment: ["DEMOCLI_SLOW_DELAY": "30"])
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    #expect(try await sandbox.run("queue", "add", "2", "Bring a coat", "--simulate").status == 0)
    let running = try sandbox.start(["queue", "run", "--scenario", "slow", "--verbose"])
    #expect(try await running.waitForStderr(30) { $0.contains(" POST ") })
    let reached = try await ConvoyTestSupport.poll(within: .seconds(30)) {
      (try? serverNotes(sandbox).isEmpty) == false ? true : nil
    }
    #expect(reached == true)
    running.killAtOnce()
    _ = await running.result()

    let again = try await sandbox.run("queue", "run", "--simulate")
    #expect(again.status == 0)
    #expect(again.stdout.contains("delivered as note #1 (the server applied it once)"))
    let notes = try serverNotes(sandbox)
    #expect(notes.count == 1)
    #expect(notes.first?["text"] as? String == "Bring a coat")
  }
}
