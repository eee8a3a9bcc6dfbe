import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Security) && !canImport(FoundationNetworking)
  import CryptoKit
  import Security
#endif

/// A ``TLSConfiguration`` as ``URLSessionTransport``'s delegate applies it.
///
/// On Apple platforms the delegate evaluates server trust itself with `SecTrust`: the extra
/// authorities as anchors (alone, or beside the system's), then the pins against every key of the
/// chain; it answers a client-certificate challenge with the PKCS#12 identity. On Linux,
/// FoundationNetworking can do none of this, so building one fails with the setting named.
final class URLSessionTrust: @unchecked Sendable {
  #if canImport(Security) && !canImport(FoundationNetworking)
    // Immutable after init; Security's CF types are thread-safe to read.
    private let anchors: [SecCertificate]
    private let anchorsOnly: Bool
    private let pins: Set<Data>
    /// The identity shown to a server that asks for a client certificate.
    let clientCredential: URLCredential?
  #endif

  /// - Throws: ``TLSConfigurationError`` for a setting that is wrong or that this platform's
  ///   `URLSession` cannot honour.
  init(_ tls: TLSConfiguration) throws(TLSConfigurationError) {
    try tls.validate()
    #if canImport(Security) && !canImport(FoundationNetworking)
      var anchors: [SecCertificate] = []
      for material in tls.trustedCertificates {
        anchors += try Self.certificates(inPEM: material.bytes(for: .trustedCertificates))
      }
      self.anchors = anchors
      anchorsOnly = !tls.trustsSystemCertificates
      pins = Set(tls.pinnedPublicKeyHashes.compactMap { Data(base64Encoded: $0) })
      if let identity = tls.clientIdentity {
        clientCredential = try Self.credential(for: identity)
      } else {
        clientCredential = nil
      }
    #else
      if let refusal = Self.refusal(of: tls) { throw refusal }
    #endif
  }

  #if canImport(Security) && !canImport(FoundationNetworking)
    /// Evaluates `trust` under this configuration.
    ///
    /// - Returns: `nil` when the server is trusted, else why not.
    func failure(evaluating trust: SecTrust) -> TransportFailure? {
      if !anchors.isEmpty {
        SecTrustSetAnchorCertificates(trust, anchors as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, anchorsOnly)
      }
      var error: CFError?
      guard SecTrustEvaluateWithError(trust, &error) else {
        let reason = error.map { CFErrorCopyDescription($0) as String } ?? "not trusted"
        return TransportFailure(kind: .untrustedServerCertificate, detail: "SecTrust: \(reason)")
      }
      guard !pins.isEmpty else { return nil }
      let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
      if chain.contains(where: { Self.publicKeyHash(of: $0).map(pins.contains) == true }) {
        return nil
      }
      return TransportFailure(
        kind: .pinnedKeyMismatch, detail: "no key of the server's chain matches a pin")
    }

    /// The SHA-256 of the certificate's DER `SubjectPublicKeyInfo`, as pins name keys.
    ///
    /// `SecKeyCopyExternalRepresentation` gives the bare key (PKCS#1 for RSA, X9.63 for EC);
    /// the SPKI is that key behind the fixed ASN.1 header for its algorithm and size.
    private static func publicKeyHash(of certificate: SecCertificate) -> Data? {
      guard let key = SecCertificateCopyKey(certificate),
        let attributes = SecKeyCopyAttributes(key) as? [String: Any],
        let type = attributes[kSecAttrKeyType as String] as? String,
        let bits = attributes[kSecAttrKeySizeInBits as String] as? Int,
        let header = spkiHeaders["\(type)/\(bits)"],
        let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?
      else { return nil }
      return Data(SHA256.hash(data: header + raw))
    }

    private static let spkiHeaders: [String: Data] = [
      "\(kSecAttrKeyTypeRSA as String)/2048": Data(
        base64Encoded: "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A")!,
      "\(kSecAttrKeyTypeRSA as String)/3072": Data(
        base64Encoded: "MIIBojANBgkqhkiG9w0BAQEFAAOCAY8A")!,
      "\(kSecAttrKeyTypeRSA as String)/4096": Data(
        base64Encoded: "MIICIjANBgkqhkiG9w0BAQEFAAOCAg8A")!,
      "\(kSecAttrKeyTypeECSECPrimeRandom as String)/256": Data(
        base64Encoded: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgA=")!,
      "\(kSecAttrKeyTypeECSECPrimeRandom as String)/384": Data(
        base64Encoded: "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgA=")!,
    ]

    private static func certificates(inPEM pem: Data) throws(TLSConfigurationError)
      -> [SecCertificate]
    {
      let text = String(decoding: pem, as: UTF8.self)
      let blocks = text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst()
      let certificates = blocks.compactMap { block -> SecCertificate? in
        guard let body = block.components(separatedBy: "-----END CERTIFICATE-----").first,
          let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters)
        else { return nil }
        return SecCertificateCreateWithData(nil, der as CFData)
      }
      guard !certificates.isEmpty, certificates.count == blocks.count else {
        throw TLSConfigurationError(
          setting: .trustedCertificates, reason: "a trusted certificate is not valid PEM")
      }
      return certificates
    }

    private static func credential(for identity: TLSClientIdentity) throws(TLSConfigurationError)
      -> URLCredential
    {
      guard identity.format == .pkcs12 else {
        throw TLSConfigurationError(
          setting: .clientIdentity,
          reason: "URLSession takes a client identity as PKCS#12 (.pkcs12); PEM needs CurlTransport"
        )
      }
      let archive = try identity.certificate.bytes(for: .clientIdentity)
      let options = [kSecImportExportPassphrase as String: identity.password ?? ""]
      var items: CFArray?
      let status = SecPKCS12Import(archive as CFData, options as CFDictionary, &items)
      guard status == errSecSuccess,
        let first = (items as? [[String: Any]])?.first,
        let value = first[kSecImportItemIdentity as String],
        CFGetTypeID(value as CFTypeRef) == SecIdentityGetTypeID()
      else {
        throw TLSConfigurationError(
          setting: .clientIdentity, reason: "the PKCS#12 archive cannot be opened (\(status))")
      }
      let secIdentity = value as! SecIdentity
      return URLCredential(identity: secIdentity, certificates: nil, persistence: .forSession)
    }
  #else
    /// The first setting of `tls` FoundationNetworking cannot honour, and why.
    private static func refusal(of tls: TLSConfiguration) -> TLSConfigurationError? {
      let noTrust =
        "FoundationNetworking cannot evaluate server trust (URLProtectionSpace.serverTrust is "
        + "unsupported on Linux); CurlTransport(tls:) can"
      if !tls.trustedCertificates.isEmpty {
        return TLSConfigurationError(setting: .trustedCertificates, reason: noTrust)
      }
      if !tls.trustsSystemCertificates {
        return TLSConfigurationError(setting: .trustsSystemCertificates, reason: noTrust)
      }
      if !tls.pinnedPublicKeyHashes.isEmpty {
        return TLSConfigurationError(setting: .pinnedPublicKeyHashes, reason: noTrust)
      }
      if tls.clientIdentity != nil {
        return TLSConfigurationError(
          setting: .clientIdentity,
          reason: "FoundationNetworking has no client identities (there is no Security framework "
            + "on Linux); CurlTransport(tls:) can send a PEM certificate and key")
      }
      if tls.minimumVersion != nil {
        return TLSConfigurationError(
          setting: .minimumVersion,
          reason: "FoundationNetworking cannot set a minimum TLS version; CurlTransport(tls:) can")
      }
      return nil
    }
  #endif
}
