import ConvoyOpenAPIKit
import ConvoyTestSupport
import Foundation
import Testing

@testable import ConvoyOpenAPI

@Suite struct CommandLineTests {
  @Test func theVersionIsConvoysNewestInTheChangelog() throws {
    let newest = try #require(try Changelog.newestVersion())
    #expect(OpenAPICommand.version == newest)
  }

  @Test func generateTakesADocumentAndOptionsInAnyOrder() throws {
    let parsed = try CommandLineArguments.parse([
      "--namespace", "Blog", "generate", "doc.yaml", "--output=out", "--access", "internal",
      "--config", "c.yaml", "-q",
    ])
    #expect(parsed.document == "doc.yaml")
    #expect(parsed.output == "out")
    #expect(parsed.namespace == "Blog")
    #expect(parsed.access == "internal")
    #expect(parsed.config == "c.yaml")
    #expect(parsed.quiet)
  }

  @Test(arguments: [
    ([String](), CommandFailure.missingCommand),
    (["make"], .unknownCommand("make")),
    (["generate", "--output", "o"], .missingArgument("<document>")),
    (["generate", "d.yaml"], .missingArgument("--output <directory>")),
    (["generate", "d.yaml", "--output"], .missingValue(option: "--output")),
    (["generate", "d.yaml", "--output", "--quiet"], .missingValue(option: "--output")),
    (["generate", "d.yaml", "--colour", "x"], .unknownOption("--colour")),
    (["generate", "d.yaml", "-x"], .unknownOption("-x")),
    (["generate", "a", "b", "--output", "o"], .unexpectedArgument("b")),
    (
      ["generate", "d", "--output", "o", "--access", "open"],
      .invalidValue(option: "--access", value: "open", expected: "public or internal")
    ),
  ])
  func wrongCommandLinesAreUsageErrors(arguments: [String], failure: CommandFailure) {
    #expect(throws: failure) { try CommandLineArguments.parse(arguments) }
    #expect(failure.exitCode == .usage)
  }

  @Test func helpNeedsNothingElse() throws {
    #expect(try CommandLineArguments.parse(["--help"]).wantsHelp)
    #expect(try CommandLineArguments.parse(["generate", "-h"]).wantsHelp)
  }

  @Test func runsEndWithTheirFamilysExitCode() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-openapi-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let document = directory.appendingPathComponent("openapi.yaml").path
    let output = directory.appendingPathComponent("out").path
    try "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n".write(
      toFile: document, atomically: true, encoding: .utf8)
    try "swagger: '2.0'\n".write(
      toFile: directory.appendingPathComponent("old.yaml").path, atomically: true, encoding: .utf8)
    try "namespace: [x]\n".write(
      toFile: directory.appendingPathComponent("bad.yaml").path, atomically: true, encoding: .utf8)

    #expect(
      OpenAPICommand.run(arguments: ["generate", document, "--output", output, "-q"]) == .success)
    #expect(FileManager.default.fileExists(atPath: output + "/API+Models.swift"))
    #expect(
      OpenAPICommand.run(arguments: ["generate", directory.path + "/none.yaml", "--output", output])
        == .missingDocument)
    #expect(
      OpenAPICommand.run(arguments: ["generate", directory.path + "/old.yaml", "--output", output])
        == .invalidDocument)
    #expect(
      OpenAPICommand.run(arguments: [
        "generate", document, "--output", output, "--config", directory.path + "/bad.yaml",
      ]) == .configuration)
    #expect(
      OpenAPICommand.run(arguments: [
        "generate", document, "--output", output, "--namespace", "a b",
      ])
        == .usage)
    #expect(
      OpenAPICommand.run(arguments: ["generate", document, "--output", document + "/sub"])
        == .cannotWrite)
  }

  @Test func failuresNameTheFileTheyAreAboutAndEndInOnePeriod() {
    let old = CommandFailure.generation(
      .unsupportedDocument("OpenAPI 2.5 is not 3.0 or 3.1"), source: "api/openapi.yaml")
    #expect(
      old.message
        == "Nothing was generated from api/openapi.yaml: the document is not supported: "
        + "OpenAPI 2.5 is not 3.0 or 3.1.")
    let yaml = CommandFailure.generation(.unreadableDocument("3:1: tabs"), source: "a.yaml")
    #expect(yaml.message == "The document a.yaml is not valid YAML or JSON: 3:1: tabs.")
    let config = CommandFailure.generation(
      .unreadableConfiguration("unknown key 'colour'"), source: "gen.yaml")
    #expect(config.message == "The configuration gen.yaml couldn't be read: unknown key 'colour'.")
    #expect(config.exitCode == .configuration)
    let write = CommandFailure.cannotWrite(
      path: "out/API.swift", reason: "The file “API.swift” couldn’t be saved.")
    #expect(
      write.message == "out/API.swift couldn't be written: The file “API.swift” couldn’t be saved.")
  }

  @Test func theSummaryCountsInTheSingularAndThePlural() throws {
    let one = try OpenAPIGenerator.generate(
      "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {operationId: a, "
        + "responses: {'204': {description: none}}}}}\n")
    #expect(
      OpenAPICommand.summary(of: one, in: "out") == "Generated 1 operation in 3 files in out.")
  }
}
