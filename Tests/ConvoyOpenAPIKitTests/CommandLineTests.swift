import Foundation
import Testing

@testable import ConvoyOpenAPI

@Suite struct CommandLineTests {
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
}
