/// A ``TLSConfiguration`` setting that is wrong, or that the transport cannot honour; the
/// transport refuses to be built rather than ignore a security setting.
public struct TLSConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The settings of a ``TLSConfiguration``.
  public enum Setting: String, Sendable, Hashable, CaseIterable {
    /// ``TLSConfiguration/trustedCertificates``.
    case trustedCertificates
    /// ``TLSConfiguration/trustsSystemCertificates``.
    case trustsSystemCertificates
    /// ``TLSConfiguration/pinnedPublicKeyHashes``.
    case pinnedPublicKeyHashes
    /// ``TLSConfiguration/clientIdentity``.
    case clientIdentity
    /// ``TLSConfiguration/minimumVersion``.
    case minimumVersion
  }

  /// The setting at fault.
  public let setting: Setting
  /// Why, for developers: what is wrong with it, or why this transport cannot honour it.
  public let reason: String

  /// Creates an error.
  public init(setting: Setting, reason: String) {
    self.setting = setting
    self.reason = reason
  }

  /// `TLS setting pinnedPublicKeyHashes: <reason>`.
  public var description: String { "TLS setting \(setting.rawValue): \(reason)" }
}

extension TLSConfigurationError: CategorizedError {
  /// A security setting the transport cannot honour is the app's to fix.
  public var category: ErrorCategory { .invalidRequest }
}
