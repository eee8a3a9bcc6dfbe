import Foundation
import PackagePlugin

/// Runs `convoy-openapi` on the `openapi.yaml`, `openapi.yml` or `openapi.json` of a target, so
/// that the target's code can use the generated requests and models at once.
///
/// An optional `convoy-openapi.yaml` next to the document configures the generator (namespace,
/// access, tags, operations, exclude, typeNames; see Docs/OpenAPI.md).
@main
struct ConvoyOpenAPIPlugin: BuildToolPlugin {
  static let documentNames = ["openapi.yaml", "openapi.yml", "openapi.json"]
  static let configurationName = "convoy-openapi.yaml"

  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let files = target.sourceFiles.map(\.url)
    let documents = files.filter { Self.documentNames.contains($0.lastPathComponent) }
    guard let document = documents.first else {
      Diagnostics.warning(
        "\(target.name) has no openapi.yaml, openapi.yml or openapi.json for convoy-openapi")
      return []
    }
    if documents.count > 1 {
      Diagnostics.error(
        "\(target.name) has more than one OpenAPI document; keep one of \(Self.documentNames)")
      return []
    }
    let configuration = files.first { $0.lastPathComponent == Self.configurationName }
    let namespace = configuration.flatMap(Self.namespace(in:)) ?? "API"
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources")
    var arguments = ["generate", document.path, "--output", output.path]
    if let configuration { arguments += ["--config", configuration.path] }
    return [
      .buildCommand(
        displayName: "Generating \(namespace) from \(document.lastPathComponent)",
        executable: try context.tool(named: "ConvoyOpenAPI").url,
        arguments: arguments,
        inputFiles: [document] + (configuration.map { [$0] } ?? []),
        outputFiles: ["", "+Models", "+Operations"].map {
          output.appendingPathComponent("\(namespace)\($0).swift")
        })
    ]
  }

  /// The `namespace:` of a configuration file, read line by line: the plugin cannot use the
  /// generator's YAML parser, and the output file names must be known before it runs.
  static func namespace(in configuration: URL) -> String? {
    guard let text = try? String(contentsOf: configuration, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("namespace:") {
      let value = line.dropFirst("namespace:".count).split(separator: "#").first ?? ""
      let name = value.trimmingCharacters(in: .whitespaces)
        .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
      if !name.isEmpty { return name }
    }
    return nil
  }
}
