import Convoy
import ConvoyMetrics
import ConvoyTesting
import Foundation
import MetricsTestKit
import Testing

@Suite struct MetricsObserverTests {
  @Test func callsAreCountedTimedAndDimensionedByMethodHostAndStatusClass() async throws {
    let metrics = TestMetrics()
    let observer = MetricsObserver(factory: metrics)
    let (ok, _) = stubbedConnection(observers: [observer], .json(["n": 1]))
    _ = try await ok.execute(Places())
    _ = try await ok.execute(Places())
    let (missing, _) = stubbedConnection(observers: [observer], .status(404))
    _ = try? await missing.execute(Places())

    let base = [("method", "GET"), ("host", "api.example.com")]
    #expect(
      try metrics.expectCounter(
        "convoy_http_client_requests", base + [("status_class", "2xx"), ("outcome", "finished")]
      ).totalValue == 2)
    #expect(
      try metrics.expectCounter(
        "convoy_http_client_requests", base + [("status_class", "4xx"), ("outcome", "failed")]
      ).totalValue == 1)
    #expect(
      try metrics.expectCounter(
        "convoy_http_client_failures", base + [("category", "notFound")]
      ).totalValue == 1)
    let timer = try metrics.expectTimer(
      "convoy_http_client_duration", base + [("status_class", "2xx")])
    #expect(timer.values.count == 2)
    #expect(timer.values.allSatisfy { $0 >= 0 })
  }

  @Test func theInFlightGaugeRisesDuringACallAndFallsAfterIt() async throws {
    let metrics = TestMetrics()
    let (connection, _) = stubbedConnection(
      observers: [MetricsObserver(factory: metrics)], .json(["n": 1]))
    _ = try await connection.execute(Places())
    let meter = try metrics.expectMeter(
      "convoy_http_client_active_requests", [("method", "GET"), ("host", "api.example.com")])
    #expect(meter.values == [1, 0])
  }

  @Test func aFailureWithoutAnAnswerHasNoStatusClass() async throws {
    let metrics = TestMetrics()
    let (connection, _) = stubbedConnection(
      observers: [MetricsObserver(factory: metrics)], retries: 0,
      .failure(TransportFailure(kind: .cannotConnectToHost, detail: "refused")))
    _ = try? await connection.execute(Places())
    let counters = metrics.counters(label: "convoy_http_client_requests")
    #expect(counters.count == 1)
    #expect(counters.first?.dimensions.contains { $0 == ("status_class", "none") } == true)
  }
}
