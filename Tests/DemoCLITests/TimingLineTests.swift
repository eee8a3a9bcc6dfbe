import Foundation
import Testing

/// `--verbose` ends each call's log with one line saying where its time went.
@Suite struct TimingLineTests {
  @Test func verboseOutputHasATimingLinePerCall() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let result = try await sandbox.run("places", "--simulate", "--verbose")
    #expect(result.status == 0)
    let timing = result.stderr.split(separator: "\n").filter { $0.hasPrefix("[convoy] TIME  #") }
    #expect(!timing.isEmpty, "\(result.stderr)")
    #expect(timing.allSatisfy { $0.contains(" GET 200 in ") && $0.contains("1 attempt") })
  }

  @Test func jsonOutputKeepsItsLogToJSONLines() async throws {
    let sandbox = try DemoCLISandbox()
    #expect(try await sandbox.run("login", "--simulate").status == 0)
    let result = try await sandbox.run("places", "--simulate", "--verbose", "--json")
    #expect(!result.stderr.contains("[convoy] TIME"))
  }
}
