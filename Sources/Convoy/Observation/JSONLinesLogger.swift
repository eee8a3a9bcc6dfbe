import Foundation

/// Writes one JSON object per event and line, for analytics pipelines.
///
/// Field names are stable (see Docs/Observation.md); absent fields are omitted, keys are sorted:
///
/// ```json
/// {"event":"response.received","request_id":3,"method":"GET","url":"https://…","status":200,"bytes":1234,"duration_ms":38.2,"ts":"2026-11-21T17:00:00.000Z"}
/// ```
public final class JSONLinesLogger: EventObserver {
  private let lock = Lock()
  private let write: @Sendable (Data) -> Void

  /// Creates a logger that hands each line (ending in `\n`) to `write`, one at a time.
  public init(write: @escaping @Sendable (Data) -> Void) {
    self.write = write
  }

  /// Creates a logger appending to `fileHandle` (standard output by default).
  public convenience init(fileHandle: FileHandle = .standardOutput) {
    self.init { data in fileHandle.write(data) }
  }

  /// Writes the event's line.
  public func receive(_ event: ConvoyEvent) {
    var line = Self.encode(event)
    line.append(0x0A)
    // Lines from concurrent calls must never interleave.
    lock.withLock { write(line) }
  }

  /// The event as one JSON object, without the newline.
  public static func encode(_ event: ConvoyEvent) -> Data {
    var object: [String: Any] = [
      "event": event.name.rawValue,
      "ts": timestamp(event.date),
    ]
    if let call = event.call {
      object["request_id"] = call.id
      object["job_id"] = call.jobID
      object["method"] = call.method.rawValue
    }
    if let job = event.job {
      object["job_id"] = job.id
      object["job_name"] = job.name
    }
    switch event.kind {
    case .requestCreated(let created):
      object["url"] = created.url
    case .requestAdapted(let adapted):
      object["url"] = adapted.url
      object["attempt"] = adapted.attempt
      object["headers"] = adapted.headers.dictionary
    case .requestSent(let sent):
      object["url"] = sent.url
      object["attempt"] = sent.attempt
    case .requestRetried(let retried):
      object["url"] = retried.url
      object["attempt"] = retried.attempt
      object["retry_delay_ms"] = milliseconds(retried.delay)
      object["reason"] = retried.reason
    case .responseReceived(let response):
      object["url"] = response.url
      object["attempt"] = response.attempt
      object["status"] = response.status
      object["bytes"] = response.bytes
      object["duration_ms"] = milliseconds(response.duration)
    case .decisionTaken(let decision):
      object["url"] = decision.url
      object["attempt"] = decision.attempt
      object["decision"] = decision.decision
      // The wording logs have always carried for a request whose body cannot be sent twice.
      object["outcome"] =
        decision.isDeclined
        ? "\(decision.outcome.rawValue) declined: body not replayable" : decision.outcome.rawValue
    case .requestFinished(let finished):
      object["url"] = finished.url
      object["status"] = finished.status
      object["duration_ms"] = milliseconds(finished.duration)
    case .requestFailed(let failure):
      object["url"] = failure.url
      object["status"] = failure.status
      object["reason"] = failure.reason
      object["error_category"] = failure.errorCategory.rawValue
      object["duration_ms"] = milliseconds(failure.duration)
    case .requestCancelled(let cancelled):
      object["url"] = cancelled.url
      object["duration_ms"] = milliseconds(cancelled.duration)
    case .jobStarted:
      break
    case .jobProgress(let progress):
      object["completed_units"] = progress.completedUnits
      object["total_units"] = progress.totalUnits
    case .jobFinished(let finished):
      object["duration_ms"] = milliseconds(finished.duration)
    case .jobFailed(let failure):
      object["status"] = failure.status
      object["reason"] = failure.reason
      object["error_category"] = failure.errorCategory.rawValue
      object["duration_ms"] = milliseconds(failure.duration)
    case .jobCancelled(let cancelled):
      object["duration_ms"] = milliseconds(cancelled.duration)
    case .streamReconnecting(let reconnecting):
      object["url"] = reconnecting.url
      object["attempt"] = reconnecting.attempt
      object["retry_delay_ms"] = milliseconds(reconnecting.delay)
      object["reason"] = reconnecting.reason
    case .webSocketOpened(let opened):
      object["url"] = opened.url
      object["subprotocol"] = opened.subprotocol
      object["compressed"] = opened.isCompressed
      object["duration_ms"] = milliseconds(opened.duration)
    case .webSocketMessage(let message):
      object["direction"] = message.direction.rawValue
      object["message_kind"] = message.kind.rawValue
      object["bytes"] = message.size
    case .webSocketClosed(let closed):
      object["url"] = closed.url
      object["client_code"] = closed.clientCode.map { Int($0) }
      object["server_code"] = closed.serverCode.map { Int($0) }
      if !closed.reason.isEmpty { object["reason"] = closed.reason }
      object["error_category"] = closed.errorCategory?.rawValue
      object["duration_ms"] = milliseconds(closed.duration)
      object["messages_sent"] = closed.metrics.messagesSent
      object["messages_received"] = closed.metrics.messagesReceived
      object["bytes_sent"] = closed.metrics.bytesSent
      object["bytes_received"] = closed.metrics.bytesReceived
      object["wire_bytes_sent"] = closed.metrics.wireBytesSent
      object["wire_bytes_received"] = closed.metrics.wireBytesReceived
    case .durableJob(let changed):
      object["job_id"] = changed.jobID.uuidString.lowercased()
      object["change"] = changed.change.rawValue
      object["step"] = changed.step
      object["attempts"] = changed.attempts
      object["retry_delay_ms"] = changed.delay.map(milliseconds)
      object["error_category"] = changed.errorCategory?.rawValue
      object["upload_offset"] = changed.uploadOffset
    case .journalRepaired(let repaired):
      object["file"] = repaired.file
      object["dropped_bytes"] = repaired.droppedBytes
      object["only_at_end"] = repaired.onlyAtTheEnd
      object["unreadable_records"] = repaired.unreadableRecords
    case .notice(let notice):
      object["reason"] = notice.text
    case .connectivityChanged(let change):
      object["connectivity"] = change.connectivity.rawValue
    case .requestWaitingForConnectivity(let waiting):
      object["url"] = waiting.url
      object["attempt"] = waiting.attempt
      object["time_left_ms"] = milliseconds(waiting.timeLeft)
    }
    return
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }

  private static func milliseconds(_ seconds: TimeInterval) -> Double {
    (seconds * 1_000 * 10).rounded() / 10
  }

  private static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}
