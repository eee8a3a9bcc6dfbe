import ConvoyOpenAPIKit
import Foundation
import Testing

/// The generated code must build in Swift 6 mode without a single warning.
@Suite struct GeneratedCodeCompilesTests {
  @Test(arguments: ["articles.yaml", "zoo.json"])
  func fixtureDocumentsGenerateCodeThatCompilesWithoutWarnings(name: String) async throws {
    let output = try OpenAPIGenerator.generate(try fixture(name))
    let complaints = try await compilerComplaints(about: output.files)
    #expect(complaints == nil, "\(complaints ?? "")")
  }

  @Test func theCheckedInGeneratedCodeIsCurrent() throws {
    let output = try OpenAPIGenerator.generate(
      try fixture("articles.yaml"),
      options: GeneratorOptions(namespace: "ArticlesAPI", access: .internal))
    let directory = packageRoot.appendingPathComponent(
      "Tests/ConvoyOpenAPIGeneratedTests/Generated")
    for file in output.files {
      let checkedIn = try String(
        contentsOf: directory.appendingPathComponent(file.name), encoding: .utf8)
      #expect(
        checkedIn == file.contents, "regenerate \(file.name): see Tests/Fixtures/OpenAPI/README.md")
    }
  }
}
