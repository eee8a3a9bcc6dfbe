import Foundation
import Testing

@Suite("democli environments and the config file")
struct EnvironmentsTests {
  @Test func builtInEnvironmentsWithoutAConfigFile() async throws {
    let sandbox = try DemoCLISandbox()
    let result = try await sandbox.run("environments", "--json")
    #expect(result.status == 0)
    let object = try result.jsonObject()
    let entries = try #require(object["environments"] as? [[String: String]])
    #expect(entries.map { $0["name"] } == ["local", "staging", "production"])
    #expect(entries[0]["url"] == "http://127.0.0.1:8080/")
    #expect(object["configFileExists"] as? Bool == false)
    #expect(
      object["configFile"] as? String
        == sandbox.configDirectory.appendingPathComponent("democli/environments.json").path)
  }

  @Test func theConfigFileAddsAndMovesEnvironments() async throws {
    let sandbox = try DemoCLISandbox()
    try sandbox.writeConfig(
      #"{"environments": {"qa": "https://qa.example.com/api/", "local": "http://127.0.0.1:9999/"}}"#
    )
    let listed = try await sandbox.run("environments")
    #expect(listed.status == 0)
    #expect(listed.stdout.contains("qa          https://qa.example.com/api/  (config file)"))
    #expect(listed.stdout.contains("local       http://127.0.0.1:9999/  (config file)"))

    let login = try await sandbox.run("login", "--env", "qa", "--simulate")
    #expect(login.status == 0)
    #expect(FileManager.default.fileExists(atPath: sandbox.sessionFile("qa").path))
    let whoami = try await sandbox.run("whoami", "--env", "qa", "--json")
    #expect(try whoami.jsonObject()["url"] as? String == "https://qa.example.com/api/")
  }

  @Test func anEnvironmentCanDescribeAnOAuth2Server() async throws {
    let sandbox = try DemoCLISandbox()
    try sandbox.writeConfig(
      #"{"environments": {"id": {"url": "https://api.example.com/", "oauth": "#
        + #"{"issuer": "https://id.example.com", "clientId": "democli"}}}}"#)
    let listed = try await sandbox.run("environments", "--json")
    #expect(listed.status == 0)
    let entries = try #require(listed.jsonObject()["environments"] as? [[String: String]])
    #expect(entries.contains { $0["name"] == "id" && $0["url"] == "https://api.example.com/" })
  }

  @Test func anOAuth2EnvironmentNeedsAClientID() async throws {
    let sandbox = try DemoCLISandbox()
    try sandbox.writeConfig(
      #"{"environments": {"id": {"oauth": {"issuer": "https://id.example.com"}}}}"#)
    let listed = try await sandbox.run("environments")
    #expect(listed.status == 78)
    #expect(listed.stderr.contains("clientId"))
  }

  @Test func deviceLoginNeedsAnOAuth2Environment() async throws {
    let sandbox = try DemoCLISandbox()
    let login = try await sandbox.run("login", "--env", "staging", "--device")
    #expect(login.status == 64)
    #expect(!FileManager.default.fileExists(atPath: sandbox.sessionFile("staging").path))
  }

  @Test func theConfigFlagPointsElsewhere() async throws {
    let sandbox = try DemoCLISandbox()
    let file = sandbox.directory.appendingPathComponent("mine.json")
    try Data(#"{"environments": {"demo": "https://demo.example.org/"}}"#.utf8).write(to: file)
    let result = try await sandbox.run("environments", "--config", file.path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("demo"))
    #expect(result.stdout.contains("Config file: \(file.path)\n"))
  }

  @Test(
    "a broken config file exits 78",
    arguments: [
      (#"{"environments": ["qa"]}"#, "is not valid"),
      (#"{"environments": {"qa": "ftp://qa.example.com/"}}"#, "must be an http or https URL"),
      (#"{"environments": {"../up": "https://x.example/"}}"#, "is not a usable name"),
    ])
  func brokenConfig(json: String, message: String) async throws {
    let sandbox = try DemoCLISandbox()
    try sandbox.writeConfig(json)
    let result = try await sandbox.run("places", "--simulate")
    #expect(result.status == 78)
    #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
  }

  @Test func aMissingConfigFlagFileExits78() async throws {
    let result = try await DemoCLISandbox().run("environments", "--config", "/nonexistent/e.json")
    #expect(result.status == 78)
    #expect(
      result.stderr.hasPrefix(
        "The environments file /nonexistent/e.json couldn't be read: there is no such file."))
  }
}
