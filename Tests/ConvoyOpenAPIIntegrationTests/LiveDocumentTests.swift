import ConvoyOpenAPIKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Documents written by FastAPI and by drf-spectacular, served by the live apps in `scripts/`:
/// the generated Swift must build without a warning in a package that depends on Convoy, and its
/// requests must round-trip values against the same servers.
///
/// Slow by nature (it builds Convoy once more, in `.build/openapi-integration`), so it is its
/// own test target: `scripts/test --filter ConvoyOpenAPIIntegrationTests`.
@Suite(
  .serialized,
  .enabled(
    if: PythonApp.canRun(importing: ["fastapi", "uvicorn", "drf_spectacular", "rest_framework"]),
    "needs FastAPI and Django REST framework with drf-spectacular: scripts/test installs them"))
struct LiveDocumentTests {
  private static let scratch = PythonApp.packageRoot.appendingPathComponent(
    ".build/openapi-integration")

  private struct Client {
    let name: String
    let namespace: String
    let script: String
    let documentPath: String
    let driver: String
    /// A hand-written `PaginatedRequest` conformance for a generated request.
    let paging: String
  }

  private let clients = [
    Client(
      name: "FastAPIClient", namespace: "FastAPIArticles", script: "openapi_fastapi_app.py",
      documentPath: "/openapi.json", driver: "FastAPIDriver.swift",
      paging: "FastAPIPaging.swift"),
    Client(
      name: "DRFClient", namespace: "DRFNotes", script: "openapi_drf_app.py",
      documentPath: "/api/schema/", driver: "DRFDriver.swift",
      paging: "DRFPaging.swift"),
  ]

  @Test func generatedClientsBuildWithoutWarningsAndRoundTripAgainstLiveServers() async throws {
    let apps = try clients.map { try PythonApp.start($0.script) }
    defer { apps.forEach { $0.stop() } }
    let manager = FileManager.default
    let drivers = PythonApp.packageRoot.appendingPathComponent("Tests/Fixtures/OpenAPI/Drivers")
    for (client, app) in zip(clients, apps) {
      let url = URL(string: "http://127.0.0.1:\(app.port)\(client.documentPath)")!
      let (data, _) = try await URLSession.shared.data(from: url)
      let document = String(decoding: data, as: UTF8.self)
      #expect(
        document.hasPrefix(client.name == "DRFClient" ? "openapi: 3.0" : "{\"openapi\":\"3.1"))
      let output = try OpenAPIGenerator.generate(
        document, options: GeneratorOptions(namespace: client.namespace))
      #expect(output.warnings.isEmpty, "\(output.warnings)")
      let directory = Self.scratch.appendingPathComponent("Sources/\(client.name)")
      try manager.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in output.files {
        try writeIfChanged(file.contents, to: directory.appendingPathComponent(file.name))
      }
      let copies = [
        (client.driver, "main.swift"), ("Check.swift", "Check.swift"),
        (client.paging, "Paging.swift"),
      ]
      for (source, target) in copies {
        let text = try String(contentsOf: drivers.appendingPathComponent(source), encoding: .utf8)
        try writeIfChanged(text, to: directory.appendingPathComponent(target))
      }
    }
    try writeIfChanged(manifest(), to: Self.scratch.appendingPathComponent("Package.swift"))

    let build = try await buildPackage(at: Self.scratch, within: 900)
    #expect(build.status == 0, "\(build.output)")
    let warnings = build.output.split(separator: "\n").filter { $0.contains("warning:") }
    #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
    guard build.status == 0 else { return }

    for (client, app) in zip(clients, apps) {
      let run = try await runCommand(
        [".build/debug/\(client.name)", String(app.port)], in: Self.scratch, within: 120)
      #expect(run.status == 0, "\(client.name): \(run.output)")
    }
  }

  private func manifest() -> String {
    let targets = clients.map {
      """
          .executableTarget(
            name: "\($0.name)", dependencies: [.product(name: "Convoy", package: "Convoy")]),
      """
    }
    return """
      // swift-tools-version:6.0
      // Written by LiveDocumentTests: clients generated from live OpenAPI documents.
      import PackageDescription

      let package = Package(
        name: "OpenAPIIntegration",
        platforms: [.macOS(.v14), .iOS(.v17)],
        dependencies: [.package(name: "Convoy", path: "\(PythonApp.packageRoot.path)")],
        targets: [
      \(targets.joined(separator: "\n"))
        ],
        swiftLanguageModes: [.v6]
      )

      """
  }

  /// Leaves an unchanged file alone, so a rerun rebuilds only what changed.
  private func writeIfChanged(_ text: String, to url: URL) throws {
    if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}
