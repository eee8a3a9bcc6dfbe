import Foundation

/// The certificate and private key a client shows a server that requires one (mutual TLS).
///
/// Its description never shows the key or the password.
public struct TLSClientIdentity: Sendable, Hashable, CustomStringConvertible {
  /// How the identity is stored.
  public enum Format: String, Sendable, Hashable {
    /// A PEM certificate (chain) and a separate PEM private key.
    case pem
    /// A PKCS#12 archive holding both.
    case pkcs12
  }

  /// How the identity is stored.
  public let format: Format
  /// The PEM certificate, or the PKCS#12 archive.
  public let certificate: TLSMaterial
  /// The PEM private key; `nil` for PKCS#12.
  public let privateKey: TLSMaterial?
  /// The password of the key or archive, if it has one.
  public let password: String?

  /// A PEM certificate and its PEM private key, optionally encrypted with `password`.
  public static func pem(
    certificate: TLSMaterial, privateKey: TLSMaterial, password: String? = nil
  ) -> TLSClientIdentity {
    TLSClientIdentity(
      format: .pem, certificate: certificate, privateKey: privateKey, password: password)
  }

  /// A PKCS#12 archive (`.p12`) holding the certificate and key, opened with `password`.
  public static func pkcs12(_ archive: TLSMaterial, password: String) -> TLSClientIdentity {
    TLSClientIdentity(format: .pkcs12, certificate: archive, privateKey: nil, password: password)
  }

  /// `TLSClientIdentity(pem, password: <redacted>)`.
  public var description: String {
    "TLSClientIdentity(\(format.rawValue)"
      + (password == nil ? ")" : ", password: \(SecretRedactor.mask))")
  }
}
