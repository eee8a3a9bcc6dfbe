import Foundation

/// A self-describing token of the simulated Places API: what it is, whose it is and when it
/// expires, with a signature, so that any simulator, in any process, can check a token another
/// one issued (`democli login` and `democli places` run as separate processes).
///
/// Wire form: `sim1.<kind>.<subject, base64url>.<expiry, Unix seconds>.<id>.<signature, hex>`;
/// the random id makes every issued token different, as a real server's are.
///
/// The signature is a keyed FNV-1a hash with a key written in this file. That stops typos and
/// hand-edited expiry dates, nothing more: it is **not** cryptography, and these tokens must
/// never protect anything real.
public struct SimulatedToken: Sendable, Hashable {
  /// What a token is for.
  public enum Kind: String, Sendable {
    /// Signs API calls; short-lived.
    case access
    /// Renews access tokens; long-lived.
    case refresh
  }

  /// What the token is for.
  public var kind: Kind
  /// Whose it is: the user's email.
  public var subject: String
  /// When it stops being valid, to the second.
  public var expiresAt: Date
  /// What tells this token from others with the same subject and expiry (letters and digits).
  public var id: String

  private static let prefix = "sim1"
  private static let key = "convoy-simulated-places-api-not-a-secret"

  /// Creates a token; the expiry is rounded down to whole seconds, as the wire form keeps it.
  public init(
    kind: Kind, subject: String, expiresAt: Date,
    id: String = String(UInt64.random(in: 0...UInt64.max), radix: 36)
  ) {
    self.kind = kind
    self.subject = subject
    self.expiresAt = Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))
    self.id = id.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
  }

  /// Reads a token and checks its signature; `nil` when it is malformed or was altered.
  /// The expiry is not checked here: see ``isExpired(at:)``.
  public init?(verifying text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 6, parts[0] == Self.prefix, let kind = Kind(rawValue: parts[1]),
      let subject = Self.base64URLDecoded(parts[2]), let seconds = Int(parts[3]),
      parts[5] == Self.signature(of: parts[0...4].joined(separator: "."))
    else { return nil }
    self.init(
      kind: kind, subject: subject, expiresAt: Date(timeIntervalSince1970: Double(seconds)),
      id: parts[4])
  }

  /// The wire form.
  public var encoded: String {
    let payload = [
      Self.prefix, kind.rawValue, Self.base64URLEncoded(subject),
      String(Int(expiresAt.timeIntervalSince1970)), id,
    ].joined(separator: ".")
    return payload + "." + Self.signature(of: payload)
  }

  /// Whether the token is past its expiry at `now`.
  public func isExpired(at now: Date = Date()) -> Bool {
    expiresAt <= now
  }

  // FNV-1a 64 over key, payload and key again; two passes with different offsets give 128 bits,
  // enough that a typo never verifies.
  private static func signature(of payload: String) -> String {
    let bytes = Array((key + "|" + payload + "|" + key).utf8)
    return [0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142].map { (offset: UInt64) in
      let hash = bytes.reduce(offset) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
      let hex = String(hash, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }

  private static func base64URLEncoded(_ text: String) -> String {
    Data(text.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  private static func base64URLDecoded(_ text: String) -> String? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
  }
}
