import Foundation

/// Writes events as short human-readable lines, by default to standard error.
///
/// ```
/// [convoy] INFO  #3 GET https://api.example.com/v2/places
/// [convoy] INFO  #3 ← 200, 1.2 KB in 38 ms
/// [convoy] WARN  #3 retry 1 in 0.5 s: status 503
/// ```
public struct ConsoleLogger: EventObserver {
  /// The least severe level written.
  public var level: LogLevel
  private let write: @Sendable (String) -> Void

  /// Creates a logger writing lines of at least `level` to `write` (standard error by default).
  public init(level: LogLevel = .info, write: (@Sendable (String) -> Void)? = nil) {
    self.level = level
    self.write =
      write ?? { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
  }

  /// Writes the event's line if its level is high enough.
  public func receive(_ event: ConvoyEvent) {
    let eventLevel = LogLevel(event.name)
    guard eventLevel >= level else { return }
    write("[convoy] \(Self.tag(eventLevel)) \(Self.line(for: event))")
  }

  private static func tag(_ level: LogLevel) -> String {
    switch level {
    case .debug: "DEBUG"
    case .info: "INFO "
    case .warning: "WARN "
    case .error: "ERROR"
    }
  }

  /// The text of an event's line, without level tag.
  public static func line(for event: ConvoyEvent) -> String {
    let subject = event.requestID.map { "#\($0)" } ?? event.jobID.map { "job \($0)" } ?? "-"
    let call = [event.method, event.url].compactMap { $0 }.joined(separator: " ")
    switch event.name {
    case .requestCreated: return "\(subject) \(call)"
    case .requestAdapted:
      let headers = event.headers?.fields.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
      return "\(subject) attempt \(event.attempt ?? 1) headers: \(headers ?? "none")"
    case .requestSent: return "\(subject) sent attempt \(event.attempt ?? 1)"
    case .requestRetried:
      return "\(subject) retry \(event.attempt ?? 1) in \(seconds(event.retryDelay)): "
        + (event.reason ?? "")
    case .responseReceived:
      return
        "\(subject) ← \(event.status ?? 0), \(size(event.bytes)) in \(milliseconds(event.duration))"
    case .decisionTaken:
      return "\(subject) \(event.decision ?? "decision") → \(event.outcome ?? "?")"
    case .requestFinished: return "\(subject) done in \(milliseconds(event.duration))"
    case .requestFailed:
      return
        "\(subject) failed (\(event.errorCategory?.rawValue ?? "unknown")): \(event.reason ?? "")"
    case .requestCancelled: return "\(subject) cancelled"
    case .jobStarted: return "\(subject) \(event.jobName ?? "job") started"
    case .jobProgress: return "\(subject) \(event.completedUnits ?? 0)/\(event.totalUnits ?? 0)"
    case .jobFinished: return "\(subject) finished in \(milliseconds(event.duration))"
    case .jobFailed:
      return
        "\(subject) failed (\(event.errorCategory?.rawValue ?? "unknown")): \(event.reason ?? "")"
    case .jobCancelled: return "\(subject) cancelled"
    case .streamReconnecting:
      return "\(subject) \(call) reconnecting in \(seconds(event.retryDelay)): "
        + (event.reason ?? "")
    case .notice: return event.reason ?? ""
    }
  }

  private static func milliseconds(_ duration: TimeInterval?) -> String {
    "\(Int(((duration ?? 0) * 1_000).rounded())) ms"
  }

  private static func seconds(_ duration: TimeInterval?) -> String {
    String(format: "%.1f s", duration ?? 0)
  }

  private static func size(_ bytes: Int?) -> String {
    let bytes = bytes ?? 0
    return bytes < 1_024 ? "\(bytes) B" : String(format: "%.1f KB", Double(bytes) / 1_024)
  }
}
