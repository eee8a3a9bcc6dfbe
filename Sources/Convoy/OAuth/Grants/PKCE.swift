import Foundation

/// Proof Key for Code Exchange with the S256 method (RFC 7636): a random verifier kept by the
/// app and its SHA-256 challenge sent with the authorization request, so that a code caught on
/// its way back is worthless to anyone else.
///
/// Its `description` and mirror never show the verifier.
struct PKCE: Sendable, Hashable {
  /// The secret verifier, sent only with the code exchange (RFC 7636 §4.5).
  let verifier: String

  /// `S256`, the only method Convoy sends (RFC 7636 §4.2; `plain` offers no protection).
  static let method = "S256"

  /// A new verifier: 32 bytes from the system's secure generator, base64url-encoded into the
  /// 43 characters RFC 7636 §4.1 recommends.
  init() {
    self.verifier = Self.randomToken(byteCount: 32)
  }

  /// A given verifier (tests, or a flow that keeps its own).
  init(verifier: String) {
    self.verifier = verifier
  }

  /// `BASE64URL(SHA256(ASCII(verifier)))` without padding (RFC 7636 §4.2).
  var challenge: String {
    Self.base64URL(SHA256.hash(Array(verifier.utf8)))
  }

  /// `byteCount` bytes from `SystemRandomNumberGenerator` — `getrandom(2)` on Linux,
  /// `arc4random_buf` on Apple platforms, both cryptographically secure — base64url-encoded.
  static func randomToken(byteCount: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return base64URL((0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// Base64url without padding (RFC 4648 §5).
  static func base64URL<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

extension PKCE: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `PKCE(S256, verifier: <redacted>)`.
  var description: String { "PKCE(S256, verifier: \(SecretRedactor.mask))" }
  /// The same as ``description``.
  var debugDescription: String { description }
  /// A mirror without the verifier.
  var customMirror: Mirror { Mirror(self, children: ["verifier": SecretRedactor.mask]) }
}
