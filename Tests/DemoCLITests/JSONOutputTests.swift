import Foundation
import Testing

@Suite("democli --json")
struct JSONOutputTests {
  @Test func everyCommandsResultParsesBack() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run("login", "--simulate", "--json").jsonObject()
    #expect(login["loggedIn"] as? Bool == true)
    #expect(login["environment"] as? String == "staging")
    #expect(login["email"] as? String == "demo@convoy.example")
    #expect(login["sessionFile"] as? String == sandbox.sessionFile().path)
    #expect(login["accessTokenExpiresAt"] is String)

    let places = try #require(
      try await sandbox.run("places", "--simulate", "--json").json() as? [[String: Any]])
    #expect(places.count == 8)
    #expect(places.first?["id"] as? Int == 1)
    #expect(places.first?["name"] as? String == "Harbour Promenade")
    #expect(places.first?["city"] as? String == "Hamburg")

    let hamburg = try #require(
      try await sandbox.run("places", "--simulate", "--city", "hamburg", "--json").json()
        as? [[String: Any]])
    #expect(hamburg.map { $0["id"] as? Int } == [1])

    let place = try await sandbox.run("place", "2", "--simulate", "--json").jsonObject()
    #expect(place["name"] as? String == "Old Bridge")

    let whoami = try await sandbox.run("whoami", "--simulate", "--json").jsonObject()
    #expect(whoami["renewable"] as? Bool == true)
    #expect(whoami["accessTokenExpired"] as? Bool == false)

    let logout = try await sandbox.run("logout", "--simulate", "--json").jsonObject()
    #expect(logout["removedSession"] as? Bool == true)
  }

  @Test func failuresPrintAnErrorObjectAndTheSentence() async throws {
    let result = try await DemoCLISandbox().run("places", "--simulate", "--json")
    #expect(result.status == 77)
    #expect(result.stderr.hasPrefix("You need to log in to do that.\n"))
    let error = try #require(try result.jsonObject()["error"] as? [String: Any])
    #expect(error["category"] as? String == "notLoggedIn")
    #expect(error["message"] as? String == "You need to log in to do that.")
    #expect(error["exitCode"] as? Int == 77)
  }

  @Test func theVerboseEventLogIsJSONLinesOnStandardError() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("login", "--simulate", "--json", "--verbose")
    #expect(result.status == 0)
    #expect(try result.jsonObject()["loggedIn"] as? Bool == true)
    let events = result.stderr.split(separator: "\n").compactMap { line in
      try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }
    let names = events.compactMap { $0["event"] as? String }
    #expect(names.filter { $0 == "response.received" }.count == 2)
    // Logging in is one job: Convoy's LoginJob, cancellable through one token.
    #expect(events.contains { $0["event"] as? String == "job.finished" })
    #expect(events.contains { $0["job_name"] as? String == "LoginJob" })
    #expect(events.contains { ($0["url"] as? String)?.hasSuffix("/oauth/token") == true })
  }
}
