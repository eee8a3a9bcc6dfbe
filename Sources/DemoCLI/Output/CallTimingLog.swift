import Convoy
import Foundation

/// `--verbose`: one line per finished call saying where its time went, from the metrics its
/// last event carries.
///
/// ```
/// [convoy] TIME  #3 GET 200 in 38 ms (queued 0 ms, 1 attempt): dns 1 ms, connect 2 ms, tls 9 ms, first byte 30 ms; 1.2 KB, HTTP/2, new connection
/// ```
struct CallTimingLog: EventObserver {
  var write: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  func receive(_ event: ConvoyEvent) {
    let line: String?
    switch event.kind {
    case .requestFinished(let finished):
      line = finished.metrics.map { Self.line(finished.call, "\(finished.status)", $0) }
    case .requestFailed(let failed):
      line = failed.metrics.map { Self.line(failed.call, "failed", $0) }
    default:
      line = nil
    }
    if let line { write(line) }
  }

  static func line(_ call: ConvoyEvent.CallIdentity, _ outcome: String, _ metrics: CallMetrics)
    -> String
  {
    var text = "[convoy] TIME  #\(call.id) \(call.method) \(outcome) in \(ms(metrics.duration))"
    let attempts = metrics.attempts == 1 ? "1 attempt" : "\(metrics.attempts) attempts"
    var extras = ["queued \(ms(metrics.queuedDuration))", attempts]
    if metrics.redirects > 0 { extras.append("\(metrics.redirects) redirect(s)") }
    if let outcome = metrics.cacheOutcome { extras.append("cache \(outcome.rawValue)") }
    if metrics.isCoalesced { extras.append("coalesced") }
    text += " (\(extras.joined(separator: ", ")))"
    guard let transfer = metrics.lastTransfer else { return text }
    let phases = [
      ("dns", transfer.domainLookupEnd), ("connect", transfer.connectEnd),
      ("tls", transfer.secureConnectionEnd), ("first byte", transfer.responseStart),
    ].compactMap { name, value in value.map { "\(name) \(ms($0))" } }
    var facts = [
      ByteCountFormatter.string(fromByteCount: Int64(transfer.bytesReceived), countStyle: .file)
    ]
    if let version = transfer.protocolVersion { facts.append(version) }
    if let reused = transfer.isReusedConnection {
      facts.append(reused ? "reused connection" : "new connection")
    }
    text += ": " + (phases.isEmpty ? "" : phases.joined(separator: ", ") + "; ")
    return text + facts.joined(separator: ", ")
  }

  private static func ms(_ seconds: TimeInterval) -> String {
    "\(Int((seconds * 1_000).rounded())) ms"
  }
}
