import Foundation

/// What developers need to know about the call behind an error, with secrets removed.
public struct ErrorContext: Sendable, Hashable, CustomStringConvertible {
  /// The request's method, when known.
  public var method: HTTPMethod?
  /// The request's URL with user info and sensitive query values redacted.
  public var url: String?
  /// The response status, when an answer arrived.
  public var statusCode: Int?
  /// The first bytes of the response body as text, redacted.
  public var bodyExcerpt: String?

  /// Creates a context; `url` is redacted here so that no caller can forget to.
  public init(method: HTTPMethod? = nil, url: URL? = nil, statusCode: Int? = nil, body: Data? = nil)
  {
    self.method = method
    self.url = url.map(SecretRedactor.redact)
    self.statusCode = statusCode
    self.bodyExcerpt = body.flatMap { SecretRedactor.excerpt(of: $0) }
  }

  /// `GET https://host/path → 404: {"reason":"…"}`.
  public var description: String {
    var text = [method?.rawValue, url].compactMap { $0 }.joined(separator: " ")
    if let statusCode { text += " → \(statusCode)" }
    if let bodyExcerpt { text += ": \(bodyExcerpt)" }
    return text
  }
}
