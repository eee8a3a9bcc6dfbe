import Foundation

/// How a transport decides whether to trust an HTTPS server, and how it proves its own identity.
///
/// It belongs to the transport, not to a ``ServerConfiguration``: a transport's open connections
/// were made under one trust decision, and reusing them for a call that asked for another would
/// undo it. Give a server that needs its own trust its own transport:
///
/// ```swift
/// let caURL = URL(fileURLWithPath: "/etc/convoy/staging-ca.pem")
/// var tls = TLSConfiguration()
/// tls.trustedCertificates = [.file(caURL)]
/// tls.pinnedPublicKeyHashes = ["I/buK4WhGBeYYQKEcMYB7fYSohlMOVQQ4F8e5Ky6mVI="]
/// tls.minimumVersion = .tls13
/// ```
///
/// A transport that cannot honour a setting refuses to be built with a
/// ``TLSConfigurationError`` naming the setting; a security setting is never silently ignored.
/// `Docs/Security.md` says which transport honours what.
public struct TLSConfiguration: Sendable, Hashable {
  /// Certificate authorities (PEM, one or more certificates each) trusted to sign servers'
  /// certificates, in addition to the system's unless ``trustsSystemCertificates`` is `false`.
  public var trustedCertificates: [TLSMaterial]
  /// Whether the system's certificate authorities are trusted too.
  public var trustsSystemCertificates: Bool
  /// Base64 SHA-256 hashes of the servers' public keys (their DER `SubjectPublicKeyInfo`), as
  /// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary |
  /// base64` prints them. When not empty, a server whose key matches none is refused even if its
  /// certificate is trusted; list the next key too, so that a rotation breaks nothing.
  public var pinnedPublicKeyHashes: [String]
  /// The certificate and key the transport shows a server that asks for one (mutual TLS).
  public var clientIdentity: TLSClientIdentity?
  /// The oldest TLS version accepted; `nil` leaves the platform's floor.
  public var minimumVersion: TLSVersion?

  /// Creates a configuration; with no argument, the platform's own trust and nothing more.
  public init(
    trustedCertificates: [TLSMaterial] = [],
    trustsSystemCertificates: Bool = true,
    pinnedPublicKeyHashes: [String] = [],
    clientIdentity: TLSClientIdentity? = nil,
    minimumVersion: TLSVersion? = nil
  ) {
    self.trustedCertificates = trustedCertificates
    self.trustsSystemCertificates = trustsSystemCertificates
    self.pinnedPublicKeyHashes = pinnedPublicKeyHashes
    self.clientIdentity = clientIdentity
    self.minimumVersion = minimumVersion
  }

  /// The platform's own trust, no pins, no client certificate.
  public static let platform = TLSConfiguration()

  /// Checks what can be checked without a connection: every pin is the base64 of 32 bytes, and
  /// something is trusted.
  ///
  /// - Throws: ``TLSConfigurationError`` naming the first setting that is wrong.
  public func validate() throws(TLSConfigurationError) {
    for pin in pinnedPublicKeyHashes where Data(base64Encoded: pin)?.count != 32 {
      throw TLSConfigurationError(
        setting: .pinnedPublicKeyHashes,
        reason: "\"\(pin)\" is not the base64 of a 32-byte SHA-256 hash")
    }
    if !trustsSystemCertificates, trustedCertificates.isEmpty {
      throw TLSConfigurationError(
        setting: .trustsSystemCertificates,
        reason: "with the system's authorities off and none given, no server could be trusted")
    }
  }
}

/// Where certificates or keys come from: bytes in memory, or a file read when the transport is
/// built.
public enum TLSMaterial: Sendable, Hashable {
  /// The bytes themselves (PEM text, or a PKCS#12 archive).
  case data(Data)
  /// A file holding them.
  case file(URL)

  /// The bytes, read from the file when there is one.
  ///
  /// - Parameter setting: The setting they belong to, named in the error.
  /// - Throws: ``TLSConfigurationError`` when the file cannot be read.
  func bytes(for setting: TLSConfigurationError.Setting) throws(TLSConfigurationError) -> Data {
    switch self {
    case .data(let data):
      return data
    case .file(let url):
      do {
        return try Data(contentsOf: url)
      } catch {
        throw TLSConfigurationError(
          setting: setting, reason: "\(url.lastPathComponent) cannot be read")
      }
    }
  }
}

/// A TLS protocol version.
public enum TLSVersion: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// TLS 1.2 (RFC 5246).
  case tls12 = 12
  /// TLS 1.3 (RFC 8446).
  case tls13 = 13

  /// Orders versions from oldest to newest.
  public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
