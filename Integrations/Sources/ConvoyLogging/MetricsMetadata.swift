import Convoy
import Foundation
import Logging

/// A call's ``CallMetrics`` as log metadata, in the snake case and milliseconds of
/// ``JSONLinesLogger``'s fields.
enum MetricsMetadata {
  static func fields(of metrics: CallMetrics) -> Logger.Metadata {
    var fields: Logger.Metadata = [
      "attempts": "\(metrics.attempts)",
      "redirects": "\(metrics.redirects)",
      "queued_ms": "\(milliseconds(metrics.queuedDuration))",
    ]
    if let cache = metrics.cacheOutcome { fields["cache"] = "\(cache.rawValue)" }
    if metrics.isCoalesced { fields["coalesced"] = "true" }
    guard let transfer = metrics.lastTransfer else { return fields }
    let phases: [(String, TimeInterval?)] = [
      ("dns_ms", transfer.domainLookupEnd), ("connect_ms", transfer.connectEnd),
      ("tls_ms", transfer.secureConnectionEnd), ("first_byte_ms", transfer.responseStart),
    ]
    for (key, value) in phases {
      if let value { fields[key] = "\(milliseconds(value))" }
    }
    if let version = transfer.protocolVersion { fields["protocol"] = "\(version)" }
    if let reused = transfer.isReusedConnection { fields["reused_connection"] = "\(reused)" }
    return fields
  }

  private static func milliseconds(_ seconds: TimeInterval) -> Double {
    (seconds * 10_000).rounded() / 10
  }
}
