import Convoy
import ConvoyLogging
import ConvoyMetrics
import ConvoyTracing
import Foundation
import Logging
import Testing
import Tracing

// The Integrations samples of Docs/Observation.md, compiled here: each block whose fence says
// "compiled by the Integrations package's tests" is one function below, its body the block as it
// stands (DocSamplesTests checks that they match).

private struct PlacesRequest: RequestDescribing {
  typealias Response = JSONResponse<[String: Int]>
  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
}

private let configuration = ServerConfiguration(
  environment: .staging, baseURL: URL(string: "https://staging.example.com/api/")!)

private func observersSample() {
  let connection = ServerConnection(
    configuration: configuration,
    observers: [
      LoggingObserver(logger: Logger(label: "com.example.places.http")),
      MetricsObserver(),
    ])
  _ = connection
}

private func connectionTracingSample() async throws {
  let connection = ServerConnection(
    configuration: configuration, tracing: DistributedTracing(tracer: InstrumentationSystem.tracer))
  let places = try await withSpan("show places") { _ in
    try await connection.execute(PlacesRequest())
  }
  _ = places
}

private func tracingSample(connection: ServerConnection) async throws {
  let places = try await withSpan("show places") { _ in
    try await connection.execute(PlacesRequest(), tracer: InstrumentationSystem.tracer)
  }
  _ = places
}

@Suite struct DocSamplesTests {
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every block of Docs/Observation.md that says it is compiled here is, line for line.
  @Test func theDocsIntegrationSamplesAreTheOnesCompiledHere() throws {
    let document = try String(
      contentsOf: Self.root.appendingPathComponent("Docs/Observation.md"), encoding: .utf8)
    let compiled = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let fence = "```swift no-compile: compiled by the Integrations package's tests"
    let blocks = document.components(separatedBy: fence).dropFirst().map { rest in
      rest.components(separatedBy: "\n```").first?.split(separator: "\n").dropFirst() ?? []
    }
    #expect(blocks.count == 3)
    for block in blocks {
      let lines = block.map { $0.trimmingCharacters(in: .whitespaces) }
      let text = lines.joined(separator: "\n")
      let compiledLines = compiled.split(separator: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let found = compiledLines.indices.contains { start in
        Array(compiledLines.dropFirst(start).prefix(lines.count)) == lines
      }
      #expect(found, "not compiled here:\n\(text)")
    }
  }
}
