import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Renders a request as a `curl` command line, for debugging.
///
/// Secrets are redacted by default (credential headers, sensitive query values and body fields),
/// so the command can be pasted into a ticket; pass `redactingSecrets: false` only on a developer
/// machine.
public enum CURLRendering {
  /// The command that sends `request` with curl.
  public static func command(for request: URLRequest, redactingSecrets: Bool = true) -> String {
    var parts = ["curl"]
    let method = request.httpMethod ?? "GET"
    if method != "GET" || request.httpBody != nil {
      parts.append("-X \(method)")
    }
    var headers = HTTPHeaders(request.allHTTPHeaderFields ?? [:])
    if redactingSecrets { headers = SecretRedactor.redact(headers) }
    for field in headers {
      parts.append("-H " + quote("\(field.name): \(field.value)"))
    }
    if let body = request.httpBody, !body.isEmpty {
      if let text = String(data: body, encoding: .utf8) {
        parts.append(
          "--data-binary " + quote(redactingSecrets ? SecretRedactor.redact(text) : text))
      } else {
        parts.append("--data-binary @body.bin  # \(body.count) bytes of binary data")
      }
    }
    let url = request.url.map { redactingSecrets ? SecretRedactor.redact($0) : $0.absoluteString }
    parts.append(quote(url ?? ""))
    return parts.joined(separator: " \\\n  ")
  }

  // POSIX shells take everything inside single quotes literally but a single quote itself.
  private static func quote(_ text: String) -> String {
    "'" + text.replacingScalars(["'": "'\\''"]) + "'"
  }
}
