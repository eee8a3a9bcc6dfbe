import Foundation

extension Nginx {
  /// One line of the test nginx's access log:
  /// `METHOD URI STATUS "RANGE" "IF-RANGE" BODY_BYTES_SENT`.
  struct AccessLogLine: Sendable, Equatable {
    /// The request method, e.g. `GET`.
    var method: String
    /// The path asked for, without the query.
    var uri: String
    /// The status nginx answered.
    var status: Int
    /// The `Range` header the client sent, if any.
    var range: String?
    /// The `If-Range` header the client sent, if any.
    var ifRange: String?
    /// The body bytes nginx sent (fewer than the file when the client went away).
    var bodyBytesSent: Int

    /// Parses a line; `nil` for a line of another shape.
    init?(_ line: String) {
      // The two headers are quoted because an HTTP-date If-Range contains spaces.
      let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
      guard quoted.count == 5 else { return nil }
      let head = quoted[0].split(separator: " ")
      guard head.count == 3, let status = Int(head[2]),
        let sent = Int(quoted[4].trimmingCharacters(in: .whitespaces))
      else { return nil }
      method = String(head[0])
      uri = String(head[1])
      self.status = status
      range = Self.header(quoted[1])
      ifRange = Self.header(quoted[3])
      bodyBytesSent = sent
    }

    /// nginx logs a missing header as `-` and escapes `"` in a value as `\x22`.
    private static func header(_ logged: Substring) -> String? {
      logged == "-" ? nil : logged.replacingOccurrences(of: "\\x22", with: "\"")
    }
  }
}
