import Convoy
import Foundation
import Tracing

/// What a finished call tells its span, after the OpenTelemetry HTTP client conventions.
enum SpanAttributesFromAnswer {
  /// An answer: its status and resend count, and from the call's metrics the protocol, the
  /// redirects and the last transfer's phases.
  static func record(status: Int?, metrics: CallMetrics?, attempts: Int, on span: some Span) {
    span.updateAttributes { attributes in
      if attempts > 1 { attributes["http.request.resend_count"] = Int64(attempts - 1) }
      if let status { attributes["http.response.status_code"] = Int64(status) }
      if let metrics { record(metrics, in: &attributes) }
    }
  }

  /// A failure: `error.type` (the status code, else Convoy's error category), the status, and
  /// the span's status set to error with the failure's redacted description.
  static func record(
    _ error: any Error, metrics: CallMetrics?, attempts: Int, on span: some Span
  ) {
    let status = (error as? ServerConnectionError)?.statusCode
    let category = ErrorMessageProvider.category(of: error)
    span.updateAttributes { attributes in
      if attempts > 1 { attributes["http.request.resend_count"] = Int64(attempts - 1) }
      if let status { attributes["http.response.status_code"] = Int64(status) }
      attributes["error.type"] =
        error.isCancellation ? "cancelled" : status.map(String.init) ?? category.rawValue
      if let metrics { record(metrics, in: &attributes) }
    }
    // The error itself is not handed to the tracer: its description may hold a URL's secrets.
    span.setStatus(
      SpanStatus(code: .error, message: SecretRedactor.redact(String(describing: error))))
  }

  private static func record(_ metrics: CallMetrics, in attributes: inout SpanAttributes) {
    if metrics.redirects > 0 { attributes["convoy.redirects"] = Int64(metrics.redirects) }
    guard let transfer = metrics.lastTransfer else { return }
    if let version = transfer.protocolVersion {
      attributes["network.protocol.version"] = protocolVersion(version)
    }
    let phases: [(String, TimeInterval?)] = [
      ("convoy.dns_seconds", transfer.domainLookupEnd),
      ("convoy.connect_seconds", transfer.connectEnd),
      ("convoy.tls_seconds", transfer.secureConnectionEnd),
      ("convoy.first_byte_seconds", transfer.responseStart),
    ]
    for (name, value) in phases {
      if let value { attributes[name] = value }
    }
    if let reused = transfer.isReusedConnection { attributes["convoy.reused_connection"] = reused }
    attributes["http.response.body.size"] = Int64(transfer.bytesReceived)
  }

  /// `HTTP/1.1` → `1.1`, `HTTP/2` → `2`, as `network.protocol.version` wants it.
  static func protocolVersion(_ version: String) -> String {
    version.hasPrefix("HTTP/") ? String(version.dropFirst(5)) : version
  }
}
