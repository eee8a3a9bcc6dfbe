import Convoy
import Foundation

/// A condition a request must meet, beyond method and path, for a route to answer it.
///
/// Each matcher carries a description, so an unmatched request's error can say what the routes
/// expected.
///
/// ```swift
/// routes.on(.post, "oauth/token", where: [.formBody(containing: ["grant_type": "password"])],
///           answer: .json(["access_token": "t1", "token_type": "bearer"]))
/// ```
public struct StubMatcher: Sendable, CustomStringConvertible {
  /// What the matcher expects, e.g. `query page=2`.
  public let description: String
  private let test: @Sendable (StubRequest) -> Bool

  /// Creates a matcher from a description and a test.
  public init(_ description: String, test: @escaping @Sendable (StubRequest) -> Bool) {
    self.description = description
    self.test = test
  }

  /// Whether `request` meets the condition.
  public func matches(_ request: StubRequest) -> Bool {
    test(request)
  }

  /// The query item `name` is present with `value` (any value when `value` is `nil`).
  public static func query(_ name: String, _ value: String? = nil) -> StubMatcher {
    StubMatcher("query \(name)=\(value ?? "*")") { request in
      request.queryItems.contains { $0.name == name && (value == nil || $0.value == value) }
    }
  }

  /// The header `name` is present with `value` (any value when `value` is `nil`).
  public static func header(_ name: String, _ value: String? = nil) -> StubMatcher {
    StubMatcher("header \(name): \(value ?? "*")") { request in
      guard let actual = request.header(name) else { return false }
      return value == nil || actual == value
    }
  }

  /// The body contains `text`.
  public static func bodyContains(_ text: String) -> StubMatcher {
    StubMatcher("body containing \"\(text)\"") { $0.bodyText.contains(text) }
  }

  /// The body is JSON equal to `expected`, whatever the key order and spacing.
  public static func jsonBody(_ expected: Any) -> StubMatcher {
    let wanted = CanonicalJSON(expected)
    return StubMatcher("JSON body \(wanted.text)") { request in
      request.jsonBody.map(CanonicalJSON.init) == wanted
    }
  }

  /// The body is a JSON object holding at least these keys with these values.
  public static func jsonBody(containing expected: [String: Any]) -> StubMatcher {
    let wanted = expected.mapValues(CanonicalJSON.init)
    let text = CanonicalJSON(expected).text
    return StubMatcher("JSON body containing \(text)") { request in
      guard let object = request.jsonBody as? [String: Any] else { return false }
      return wanted.allSatisfy { key, value in object[key].map(CanonicalJSON.init) == value }
    }
  }

  /// The body is form-encoded and holds at least these fields with these values.
  public static func formBody(containing expected: [String: String]) -> StubMatcher {
    let text = expected.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return StubMatcher("form body containing \(text.joined(separator: "&"))") { request in
      let fields = request.formBody
      return expected.allSatisfy { fields[$0.key] == $0.value }
    }
  }
}

/// A JSON value in one spelling (sorted keys, no spaces), so that two values compare equal
/// exactly when they mean the same JSON.
private struct CanonicalJSON: Equatable, Sendable {
  let text: String

  init(_ value: Any) {
    let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    text = data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
  }
}
