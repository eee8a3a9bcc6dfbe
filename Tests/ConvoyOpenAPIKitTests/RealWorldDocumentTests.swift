import ConvoyOpenAPIKit
import Foundation
import Testing

/// A large description that no one here wrote must give code that compiles: Apache Airflow's
/// REST API (OpenAPI 3.1, 128 operations, about 450 kB of YAML), as the `apache-airflow-core`
/// wheel on PyPI ships it. `scripts/test` downloads the wheel and names the document in
/// `CONVOY_REAL_WORLD_OPENAPI`; a plain `swift test` without it skips this suite.
@Suite(
  .enabled(
    if: realWorldDocument != nil
      || ProcessInfo.processInfo.environment["CONVOY_REQUIRE_PEERS"] == "1",
    "CONVOY_REAL_WORLD_OPENAPI names no document (scripts/test fetches Apache Airflow's)"))
struct RealWorldDocumentTests {
  @Test func apacheAirflowsRESTAPIGeneratesCodeThatCompilesWithoutWarnings() async throws {
    let url = try #require(realWorldDocument, "scripts/test fetches the document; see above")
    let output = try OpenAPIGenerator.generate(
      try String(contentsOf: url, encoding: .utf8),
      options: GeneratorOptions(namespace: "Airflow"))
    // Every operation is generated: none has a path the generator could not fill.
    #expect(output.operationCount == 128)
    #expect(
      !output.warnings.contains { $0.message.contains("the operation is left out") },
      "\(output.warnings)")
    // No path goes out with a `{name}` template left in its text (FastAPI leaves some path
    // parameters untyped), which would be a wrong URL.
    let paths = output.files.flatMap { $0.contents.split(separator: "\n") }.filter {
      $0.contains("var path: String {")
    }
    #expect(paths.count == 128)
    let unfilled = paths.filter { $0.contains(#/"[^"]*\{[A-Za-z_]+\}[^"]*"/#) }
    #expect(unfilled.isEmpty, "\(unfilled)")
    let complaints = try await compilerComplaints(about: output.files)
    #expect(complaints == nil, "\(complaints ?? "")")
  }
}

/// The document `CONVOY_REAL_WORLD_OPENAPI` names, when it is there.
private var realWorldDocument: URL? {
  ProcessInfo.processInfo.environment["CONVOY_REAL_WORLD_OPENAPI"].map {
    URL(fileURLWithPath: $0)
  }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
}
