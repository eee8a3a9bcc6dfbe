import Foundation
import Testing

@Suite("democli Ctrl-C")
struct InterruptTests {
  @Test(arguments: [["places"], ["login"]])
  func anInterruptCancelsTheRunningRequestAndExits130(command: [String]) async throws {
    // Answers that take 30 s: the interrupt must land while the request is in flight even when
    // a loaded machine (or ThreadSanitizer) takes seconds to deliver it.
    let sandbox = try DemoCLISandbox(extraEnvironment: ["DEMOCLI_SLOW_DELAY": "30"])
    if command == ["places"] { #expect(try await sandbox.run("login", "--simulate").status == 0) }
    let running = try sandbox.start(command + ["--scenario", "slow", "--verbose"])
    // The event log shows the request leaving, so the interrupt lands while it is in flight.
    let inFlight = try await running.waitForStderr { $0.contains(" GET ") || $0.contains(" POST ") }
    #expect(inFlight)
    running.interrupt()
    let result = await running.result()
    #expect(result.status == 130)
    #expect(result.stdout.isEmpty)
    // The transfer itself reports the cancellation: the token reached it, rather than the
    // process merely exiting after its grace period.
    #expect(result.stderr.contains("cancelled"))
  }
}
