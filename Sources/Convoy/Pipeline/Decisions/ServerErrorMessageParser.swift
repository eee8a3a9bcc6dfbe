import Foundation

/// Finds a message meant for people in an error body, such as
/// `{"error": true, "code": 999, "reason": "Invalid Token."}`.
///
/// Only JSON bodies are read. The first key in ``messageKeys`` whose value is a non-empty string
/// wins; nested objects are followed with dotted keys (`"error.message"`), arrays with indexes
/// (`"errors.0.message"`, for GraphQL and JSON:API bodies).
///
/// An API with its own shape configures the keys once, on the ``StatusValidation`` of its chain:
///
/// ```swift
/// StatusValidation(parser: ServerErrorMessageParser(messageKeys: ["reason"]))
/// ```
public struct ServerErrorMessageParser: Sendable, Hashable {
  /// Keys tried in order.
  public var messageKeys: [String]

  /// Creates a parser; the defaults cover Vapor, OAuth2 (RFC 6749 §5.2) and common API shapes.
  public init(
    messageKeys: [String] = ["reason", "message", "error_description", "error.message", "detail"]
  ) {
    self.messageKeys = messageKeys
  }

  /// The message in `response`'s body, if there is one.
  public func message(in response: TransportResponse) -> String? {
    guard !response.data.isEmpty,
      let object = try? JSONSerialization.jsonObject(with: response.data) as? [String: Any]
    else { return nil }
    for key in messageKeys {
      if let text = value(at: key, in: object) as? String,
        !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      {
        return text
      }
    }
    return nil
  }

  private func value(at keyPath: String, in object: [String: Any]) -> Any? {
    var current: Any? = object
    for part in keyPath.split(separator: ".") {
      if let array = current as? [Any] {
        guard let index = Int(part), array.indices.contains(index) else { return nil }
        current = array[index]
      } else {
        current = (current as? [String: Any])?[String(part)]
      }
    }
    return current
  }
}
