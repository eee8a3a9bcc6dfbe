import Convoy
import CoreMetrics
import Foundation

/// Counts Convoy's calls with swift-metrics: requests, their duration, failures by category,
/// and the calls in flight.
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `convoy_http_client_requests` | counter | `method`, `host`, `status_class` (`2xx` … `5xx`, or `none` without an answer), `outcome` (`finished`, `failed`, `cancelled`) |
/// | `convoy_http_client_duration` | timer | `method`, `host`, `status_class` |
/// | `convoy_http_client_failures` | counter | `method`, `host`, `category` (``ErrorCategory``) |
/// | `convoy_http_client_active_requests` | meter (in-flight gauge) | `method`, `host` |
///
/// The host is the one a call was sent to; a call whose path makes no URL counts as host `none`.
/// Paths and query items never become dimensions, so the number of series stays bounded.
///
/// ```swift
/// let connection = ServerConnection(
///   configuration: configuration, observers: [MetricsObserver()])
/// ```
public final class MetricsObserver: EventObserver, @unchecked Sendable {
  /// The labels' common start, `convoy_http_client` by default.
  public let prefix: String
  private let factory: any MetricsFactory
  /// Each call's dimensions while it is in flight, so that it leaves the gauge it joined even
  /// when a redirect took it to another host.
  /// Guarded by `lock`.
  private var inFlight: [UInt64: [(String, String)]] = [:]
  private let lock = NSLock()

  /// Creates an observer recording through `factory` (the bootstrapped metrics system by
  /// default) under labels starting with `prefix`.
  public init(
    prefix: String = "convoy_http_client", factory: any MetricsFactory = MetricsSystem.factory
  ) {
    self.prefix = prefix
    self.factory = factory
  }

  /// Updates the metrics an event concerns: a call's start and its end.
  public func receive(_ event: ConvoyEvent) {
    switch event.kind {
    case .requestCreated(let created):
      let dimensions = [
        ("method", created.call.method.rawValue), ("host", Self.host(of: created.url)),
      ]
      lock.withLock { inFlight[created.call.id] = dimensions }
      Meter(label: "\(prefix)_active_requests", dimensions: dimensions, factory: factory)
        .increment()
    case .requestFinished(let finished):
      end(finished.call, status: finished.status, outcome: "finished", duration: finished.duration)
    case .requestFailed(let failed):
      let dimensions = end(
        failed.call, status: failed.status, outcome: "failed", duration: failed.duration)
      Counter(
        label: "\(prefix)_failures",
        dimensions: dimensions + [("category", failed.errorCategory.rawValue)], factory: factory
      ).increment()
    case .requestCancelled(let cancelled):
      end(cancelled.call, status: nil, outcome: "cancelled", duration: cancelled.duration)
    default:
      break
    }
  }

  /// Counts the end of `call` and returns its `method` and `host` dimensions.
  @discardableResult
  private func end(
    _ call: ConvoyEvent.CallIdentity, status: Int?, outcome: String, duration: TimeInterval
  ) -> [(String, String)] {
    let joined = lock.withLock { inFlight.removeValue(forKey: call.id) }
    let dimensions = joined ?? [("method", call.method.rawValue), ("host", "none")]
    if joined != nil {
      Meter(label: "\(prefix)_active_requests", dimensions: dimensions, factory: factory)
        .decrement()
    }
    let statusClass = ("status_class", Self.statusClass(status))
    Counter(
      label: "\(prefix)_requests", dimensions: dimensions + [statusClass, ("outcome", outcome)],
      factory: factory
    ).increment()
    Timer(label: "\(prefix)_duration", dimensions: dimensions + [statusClass], factory: factory)
      .recordSeconds(duration)
    return dimensions
  }

  /// `2xx` … `5xx`, or `none` for a failure no answer caused.
  static func statusClass(_ status: Int?) -> String {
    guard let status, (100..<600).contains(status) else { return "none" }
    return "\(status / 100)xx"
  }

  private static func host(of url: String?) -> String {
    url.flatMap { URLComponents(string: $0)?.host } ?? "none"
  }
}
