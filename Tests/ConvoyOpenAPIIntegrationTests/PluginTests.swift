import Foundation
import Testing

/// ConvoyOpenAPIPlugin in a package of its own: the document and configuration in a target,
/// the generated types used by that target's code, built with `swift build`.
@Suite struct PluginTests {
  private static let scratch = PythonApp.packageRoot.appendingPathComponent(
    ".build/openapi-plugin")

  private static let document = """
    openapi: 3.0.3
    info: {title: Blog, version: '1'}
    paths:
      /posts:
        get:
          tags: [posts]
          operationId: listPosts
          parameters: [{name: tag, in: query, schema: {type: string}}]
          responses:
            '200':
              description: OK
              content:
                application/json:
                  schema: {type: array, items: {$ref: '#/components/schemas/Post'}}
    components:
      schemas:
        Post:
          type: object
          required: [id]
          properties: {id: {type: integer}, title: {type: string}}

    """

  private static let use = """
    import Convoy

    /// The newest posts with `tag`.
    func posts(tagged tag: String, on connection: ServerConnection) async throws -> [Blog.Post] {
      try await connection.execute(Blog.Posts.listPosts(tag: tag)).value
    }

    """

  private static let manifest = """
    // swift-tools-version:6.0
    // Written by PluginTests.
    import PackageDescription

    let package = Package(
      name: "PluginCheck",
      platforms: [.macOS(.v14), .iOS(.v17)],
      dependencies: [.package(name: "Convoy", path: "\(PythonApp.packageRoot.path)")],
      targets: [
        .target(
          name: "BlogClient", dependencies: [.product(name: "Convoy", package: "Convoy")],
          plugins: [.plugin(name: "ConvoyOpenAPIPlugin", package: "Convoy")])
      ],
      swiftLanguageModes: [.v6]
    )

    """

  @Test func thePluginGeneratesATargetsTypesAtBuildTime() async throws {
    let sources = Self.scratch.appendingPathComponent("Sources/BlogClient")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    let files = [
      (Self.scratch.appendingPathComponent("Package.swift"), Self.manifest),
      (sources.appendingPathComponent("openapi.yaml"), Self.document),
      (
        sources.appendingPathComponent("convoy-openapi.yaml"), "namespace: Blog\naccess: internal\n"
      ),
      (sources.appendingPathComponent("Posts.swift"), Self.use),
    ]
    for (url, text) in files where (try? String(contentsOf: url, encoding: .utf8)) != text {
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let build = try await buildPackage(at: Self.scratch, within: 900)
    #expect(build.status == 0, "\(build.output)")
    #expect(!build.output.contains("warning:"), "\(build.output)")
    let generated = Self.scratch.appendingPathComponent(
      ".build/plugins/outputs/openapi-plugin/BlogClient/destination/ConvoyOpenAPIPlugin/GeneratedSources/Blog+Operations.swift"
    )
    #expect(FileManager.default.fileExists(atPath: generated.path))
  }
}
