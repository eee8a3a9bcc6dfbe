import Convoy
import ConvoyLogging
import ConvoyMetrics
import ConvoyPostgres
import ConvoyTracing
import Foundation
import Logging
import PostgresNIO
import Testing
import Tracing

// The Integrations samples of Docs/Observation.md and Docs/DurableJobs.md, compiled here: each block whose fence says
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

private struct PlaceOrder: DurableRequest {
  static let durableName = "place-order"
  typealias Response = EmptyResponse
  let itemID: Int
  var method: HTTPMethod { .post }
  var path: String { "orders" }
}

private func postgresStoreSample(connection: ServerConnection, password: String) async throws {
  let client = PostgresClient(
    configuration: .init(
      host: "db.internal", username: "shop", password: password, database: "shop",
      tls: .require(.makeClientConfiguration())))
  let running = Task { await client.run() }
  let store = try PostgresJobStore(client: client, tableName: "shop_jobs")
  let queue = DurableJobQueue(connection: connection, store: store, claimDuration: 30)
  queue.register(PlaceOrder.self)
  try await queue.start()
  try await queue.add(DurableJob(steps: [.request(PlaceOrder(itemID: 7))]))
  queue.stop()
  running.cancel()
}

@Suite struct DocSamplesTests {
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every block of the docs that says it is compiled here is, line for line.
  @Test(arguments: [("Docs/Observation.md", 3), ("Docs/DurableJobs.md", 1)])
  func theDocsIntegrationSamplesAreTheOnesCompiledHere(path: String, count: Int) throws {
    let document = try String(
      contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let compiled = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let fence = "```swift no-compile: compiled by the Integrations package's tests"
    let blocks = document.components(separatedBy: fence).dropFirst().map { rest in
      rest.components(separatedBy: "\n```").first?.split(separator: "\n").dropFirst() ?? []
    }
    #expect(blocks.count == count)
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
