import Foundation

/// An OAuth2 access token with what is needed to renew it (RFC 6749 §5.1).
///
/// Its `description` and mirror never show the token or the refresh token.
public struct AccessToken: Codable, Sendable, Hashable {
  /// The token itself.
  public var value: String
  /// The scheme it is sent with, e.g. `"Bearer"`.
  public var type: String
  /// When it stops being valid, if the server said.
  public var expiresAt: Date?
  /// The token that renews it, if the server issued one.
  public var refreshToken: String?
  /// When it was received; with ``expiresAt`` it gives the lifetime the server chose.
  public var issuedAt: Date?

  /// The largest share of a token's lifetime a refresh margin may take: a token is always used
  /// for at least half its life, whatever lifetime the server chose.
  public static let maximumMarginShare = 0.5

  /// Creates a token.
  public init(
    value: String, type: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil,
    issuedAt: Date? = nil
  ) {
    self.value = value
    self.type = type
    self.expiresAt = expiresAt
    self.refreshToken = refreshToken
    self.issuedAt = issuedAt
  }

  /// Whether the token is expired, or will be within `margin` seconds of `now`.
  ///
  /// When the lifetime is known (``issuedAt`` and ``expiresAt``), the margin never exceeds
  /// ``maximumMarginShare`` of it: with a 60-second margin a 3-second token is renewed after
  /// 1.5 seconds, not before every call.
  public func expires(within margin: TimeInterval, of now: Date = Date()) -> Bool {
    guard let expiresAt else { return false }
    var margin = margin
    if let issuedAt {
      margin = min(margin, expiresAt.timeIntervalSince(issuedAt) * Self.maximumMarginShare)
    }
    return expiresAt.timeIntervalSince(now) <= margin
  }

  /// The `Authorization` header value: `"<type> <value>"`.
  public var authorizationHeaderValue: String { "\(type) \(value)" }
}

extension AccessToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `AccessToken(type: Bearer, value: <redacted>, expiresAt: …)`.
  public var description: String {
    let expiry = expiresAt.map { "\($0)" } ?? "unknown"
    let refresh = refreshToken == nil ? "none" : SecretRedactor.mask
    return "AccessToken(type: \(type), value: \(SecretRedactor.mask), expiresAt: \(expiry), "
      + "refreshToken: \(refresh))"
  }
  /// The same as ``description``.
  public var debugDescription: String { description }
  /// A mirror without secrets, so `dump` stays safe.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "type": type, "value": SecretRedactor.mask, "expiresAt": expiresAt as Any,
        "refreshToken": refreshToken == nil ? "none" : SecretRedactor.mask,
      ])
  }
}

extension AccessToken {
  /// The token as issued at `now` on the connection's clock, its lifetime kept.
  ///
  /// A token endpoint's answer is dated when it is decoded, in real time; a session counts
  /// expiry and the refresh margin on its connection's ``ServerConfiguration/clock``, so a fresh
  /// token is dated on that clock. With the system clock the two dates are microseconds apart.
  func reissued(at now: Date) -> AccessToken {
    guard let issuedAt else { return self }
    var token = self
    token.issuedAt = now
    token.expiresAt = expiresAt.map { now.addingTimeInterval($0.timeIntervalSince(issuedAt)) }
    return token
  }
}
