import Foundation

/// Writes one JSON object per event and line, for analytics pipelines.
///
/// Field names are stable (see Docs/Observation.md); absent fields are omitted, keys are sorted:
///
/// ```json
/// {"event":"response.received","request_id":3,"method":"GET","url":"https://…","status":200,"bytes":1234,"duration_ms":38.2,"ts":"2026-11-21T17:00:00.000Z"}
/// ```
public final class JSONLinesLogger: EventObserver {
  private let lock = NSLock()
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
    object["request_id"] = event.requestID
    object["job_id"] = event.jobID
    object["job_name"] = event.jobName
    object["method"] = event.method
    object["url"] = event.url
    object["attempt"] = event.attempt
    object["status"] = event.status
    object["bytes"] = event.bytes
    object["duration_ms"] = event.duration.map(milliseconds)
    object["headers"] = event.headers?.dictionary
    object["decision"] = event.decision
    object["outcome"] = event.outcome
    object["retry_delay_ms"] = event.retryDelay.map(milliseconds)
    object["reason"] = event.reason
    object["error_category"] = event.errorCategory?.rawValue
    object["completed_units"] = event.completedUnits
    object["total_units"] = event.totalUnits
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
