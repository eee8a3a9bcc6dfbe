/// An HTTP request method.
///
/// A struct rather than an enum so that servers with extension methods (`PURGE`, `REPORT`)
/// stay reachable without a library change.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method's token as it goes on the wire, e.g. `"GET"`.
  public let rawValue: String

  /// Creates a method from its wire token; the token is upper-cased.
  public init(rawValue: String) {
    self.rawValue = rawValue.uppercased()
  }

  /// `GET`: read a resource.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`: read a resource's headers only.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`: submit data; not idempotent.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`: replace a resource.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`: change part of a resource; not idempotent.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`: remove a resource.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`: ask what a resource supports.
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
  ///
  /// Retry policies replay only idempotent requests unless a request opts in.
  public var isIdempotent: Bool {
    switch rawValue {
    case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
    default: false
    }
  }

  /// The wire token.
  public var description: String { rawValue }
}
