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

  /// The text of an event's line, without level tag. Text from the server or the error (a
  /// reason, a header) cannot break it: line breaks and control characters appear as escapes.
  public static func line(for event: ConvoyEvent) -> String {
    text(for: event).escapingControlCharacters
  }

  private static func text(for event: ConvoyEvent) -> String {
    let subject = event.call.map { "#\($0.id)" } ?? event.job.map { "job \($0.id)" } ?? "-"
    switch event.kind {
    case .requestCreated(let created):
      return "\(subject) \(call(created.call, created.url))"
    case .requestAdapted(let adapted):
      let headers = adapted.headers.fields.map { "\($0.name): \($0.value)" }
      return "\(subject) attempt \(adapted.attempt) headers: \(headers.joined(separator: "; "))"
    case .requestSent(let sent): return "\(subject) sent attempt \(sent.attempt)"
    case .requestRetried(let retried):
      return "\(subject) retry \(retried.attempt) in \(seconds(retried.delay)): \(retried.reason)"
    case .responseReceived(let response):
      return
        "\(subject) ← \(response.status), \(size(response.bytes)) in "
        + milliseconds(response.duration)
    case .decisionTaken(let decision):
      let declined = decision.isDeclined ? " declined: body not replayable" : ""
      return "\(subject) \(decision.decision) → \(decision.outcome.rawValue)\(declined)"
    case .requestFinished(let finished):
      return "\(subject) done in \(milliseconds(finished.duration))"
    case .requestFailed(let failure):
      return "\(subject) failed (\(failure.errorCategory.rawValue)): \(failure.reason)"
    case .requestCancelled: return "\(subject) cancelled"
    case .jobStarted(let started): return "\(subject) \(started.job.name) started"
    case .jobProgress(let progress):
      return "\(subject) \(progress.completedUnits)/\(progress.totalUnits)"
    case .jobFinished(let finished):
      return "\(subject) finished in \(milliseconds(finished.duration))"
    case .jobFailed(let failure):
      return "\(subject) failed (\(failure.errorCategory.rawValue)): \(failure.reason)"
    case .jobCancelled: return "\(subject) cancelled"
    case .streamReconnecting(let reconnecting):
      return
        "\(subject) \(call(reconnecting.call, reconnecting.url)) reconnecting in "
        + "\(seconds(reconnecting.delay)): \(reconnecting.reason)"
    case .webSocketOpened(let opened):
      let details = [opened.subprotocol, opened.isCompressed ? "compressed" : nil].compactMap { $0 }
      let extra = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
      return
        "\(subject) WebSocket \(opened.url ?? "?") open in "
        + "\(milliseconds(opened.duration))\(extra)"
    case .webSocketMessage(let message):
      let arrow = message.direction == .sent ? "→" : "←"
      return "\(subject) \(arrow) \(message.kind.rawValue) \(size(message.size))"
    case .webSocketClosed(let closed):
      let codes = [
        closed.clientCode.map { "client \($0)" },
        closed.serverCode.map { "server \($0)" },
      ].compactMap { $0 }.joined(separator: ", ")
      let failure = closed.errorCategory.map { " failed (\($0.rawValue))" } ?? ""
      return
        "\(subject) WebSocket closed\(failure)\(codes.isEmpty ? "" : " [\(codes)]") after "
        + "\(milliseconds(closed.duration)): \(closed.metrics.messagesSent) sent, "
        + "\(closed.metrics.messagesReceived) received"
    case .durableJob(let changed):
      let step = changed.step.map { " step \($0)" } ?? ""
      let attempts = changed.attempts.map { " after \($0) attempts" } ?? ""
      let category = changed.errorCategory.map { " (\($0.rawValue))" } ?? ""
      let delay = changed.delay.map { ", again in \(seconds($0))" } ?? ""
      let offset = changed.uploadOffset.map { " at byte \($0)" } ?? ""
      return
        "durable job \(changed.jobID.uuidString.lowercased())\(step) "
        + "\(changed.change.rawValue)\(offset)\(category)\(attempts)\(delay)"
    case .journalRepaired(let repaired):
      let place = repaired.onlyAtTheEnd ? "at its end" : "between records"
      return
        "journal \(repaired.file) repaired: \(repaired.droppedBytes) damaged bytes \(place), "
        + "\(repaired.unreadableRecords) unreadable records dropped"
    case .notice(let notice): return notice.text
    case .connectivityChanged(let change): return "network \(change.connectivity.rawValue)"
    case .requestWaitingForConnectivity(let waiting):
      return
        "\(subject) attempt \(waiting.attempt) waits for the network, at most "
        + seconds(waiting.timeLeft)
    }
  }

  private static func call(_ call: ConvoyEvent.CallIdentity, _ url: String?) -> String {
    [call.method.rawValue, url].compactMap { $0 }.joined(separator: " ")
  }

  private static func milliseconds(_ duration: TimeInterval) -> String {
    "\(Int((duration * 1_000).rounded())) ms"
  }

  private static func seconds(_ duration: TimeInterval) -> String {
    String(format: "%.1f s", duration)
  }

  private static func size(_ bytes: Int) -> String {
    bytes < 1_024 ? "\(bytes) B" : String(format: "%.1f KB", Double(bytes) / 1_024)
  }
}
