import Convoy
import Foundation
import Logging

/// Writes Convoy's events to a swift-log `Logger`: one entry per event, its message the line
/// ``ConsoleLogger`` writes, its metadata the fields ``JSONLinesLogger`` writes.
///
/// Both come from Convoy's own loggers, so the entries are redacted exactly as theirs are:
/// credentials in URLs, secret query items and headers, and secrets in reasons never reach a log
/// handler. Levels follow Convoy's (``LogLevel``): adapted headers and decisions at `debug`,
/// calls and answers at `info`, retries and notices at `warning`, failures at `error`. The
/// logger's own level filters as usual, before any entry is built.
///
/// ```swift
/// let connection = ServerConnection(
///   configuration: configuration,
///   observers: [LoggingObserver(logger: Logger(label: "com.example.places.http"))])
/// ```
///
/// The event that ends a call also carries its timing (``CallMetrics``) as metadata:
/// `attempts`, `redirects`, `queued_ms`, `cache` and, from the last transfer, `connect_ms`,
/// `tls_ms`, `first_byte_ms`, `protocol` and `reused_connection`.
public struct LoggingObserver: EventObserver {
  /// Where the entries go.
  public var logger: Logger

  /// Creates an observer writing to `logger`.
  public init(logger: Logger) {
    self.logger = logger
  }

  /// Logs `event` at its level, if the logger's level lets it through.
  public func receive(_ event: ConvoyEvent) {
    let level = Self.level(for: event)
    guard level >= logger.logLevel else { return }
    logger.log(
      level: level, "\(ConsoleLogger.line(for: event))", metadata: Self.metadata(for: event))
  }

  /// The swift-log level of `event`: Convoy's ``LogLevel`` of its name.
  public static func level(for event: ConvoyEvent) -> Logger.Level {
    switch LogLevel(event.name) {
    case .debug: .debug
    case .info: .info
    case .warning: .warning
    case .error: .error
    }
  }

  /// The event's fields as ``JSONLinesLogger`` writes them (already redacted), plus the call's
  /// metrics on the event that ends it.
  public static func metadata(for event: ConvoyEvent) -> Logger.Metadata {
    var metadata = Logger.Metadata()
    let line = JSONLinesLogger.encode(event)
    if let fields = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
      for (key, value) in fields where key != "ts" {
        metadata[key] = metadataValue(value)
      }
    }
    if let metrics = Self.metrics(of: event) {
      for (key, value) in MetricsMetadata.fields(of: metrics) { metadata[key] = value }
    }
    return metadata
  }

  private static func metrics(of event: ConvoyEvent) -> CallMetrics? {
    switch event.kind {
    case .requestFinished(let finished): finished.metrics
    case .requestFailed(let failed): failed.metrics
    case .requestCancelled(let cancelled): cancelled.metrics
    default: nil
    }
  }

  private static func metadataValue(_ value: Any) -> Logger.MetadataValue {
    switch value {
    case let text as String: .string(text)
    case let object as [String: Any]: .dictionary(object.mapValues(metadataValue))
    case let list as [Any]: .array(list.map(metadataValue))
    case let number as NSNumber: .stringConvertible(number.stringValue)
    default: .string(String(describing: value))
    }
  }
}
