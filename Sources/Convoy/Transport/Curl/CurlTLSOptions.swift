#if os(Linux)
  import Foundation

  /// A ``TLSConfiguration`` turned into libcurl options once, when the transport is built, so
  /// that a bad file or pin fails then, with a typed error, and not on every call.
  struct CurlTLSOptions: Sendable {
    /// The certificate authorities to trust, concatenated PEM, or `nil` for the system's only.
    private let certificateAuthorities: Data?
    private let trustsSystemCertificates: Bool
    /// `sha256//A;sha256//B`, as `CURLOPT_PINNEDPUBLICKEY` wants them.
    private let pinnedPublicKeys: String?
    private let clientCertificate: Data?
    private let clientKey: Data?
    private let clientFormat: TLSClientIdentity.Format?
    private let password: String?
    private let minimumVersion: TLSVersion?

    /// libcurl 7.77 added `CURLOPT_CAINFO_BLOB`; 7.71 the client certificate and key blobs.
    private static let blobsVersion: UInt32 = 0x07_4D_00

    init(_ configuration: TLSConfiguration, library: CurlLibrary) throws(TLSConfigurationError) {
      try configuration.validate()
      let needsBlobs =
        !configuration.trustedCertificates.isEmpty || configuration.clientIdentity != nil
      if needsBlobs, library.versionNumber < Self.blobsVersion {
        throw TLSConfigurationError(
          setting: configuration.trustedCertificates.isEmpty
            ? .clientIdentity : .trustedCertificates,
          reason:
            "libcurl \(library.version) is older than 7.77, which takes certificates from memory")
      }
      var authorities = Data()
      for material in configuration.trustedCertificates {
        let pem = try material.bytes(for: .trustedCertificates)
        guard String(decoding: pem, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
          throw TLSConfigurationError(
            setting: .trustedCertificates, reason: "a trusted certificate is not PEM")
        }
        authorities.append(pem)
        authorities.append(UInt8(ascii: "\n"))
      }
      certificateAuthorities = authorities.isEmpty ? nil : authorities
      trustsSystemCertificates = configuration.trustsSystemCertificates
      pinnedPublicKeys =
        configuration.pinnedPublicKeyHashes.isEmpty
        ? nil : configuration.pinnedPublicKeyHashes.map { "sha256//" + $0 }.joined(separator: ";")
      if let identity = configuration.clientIdentity {
        clientCertificate = try identity.certificate.bytes(for: .clientIdentity)
        clientKey = try identity.privateKey?.bytes(for: .clientIdentity)
        clientFormat = identity.format
        password = identity.password
      } else {
        clientCertificate = nil
        clientKey = nil
        clientFormat = nil
        password = nil
      }
      minimumVersion = configuration.minimumVersion
    }

    /// Sets the options on a transfer's handle; the platform's defaults need none.
    func apply(to easy: CurlLibrary.Easy, library: CurlLibrary) {
      if let certificateAuthorities {
        // The blob replaces the CA bundle file; the CA directory (Debian's /etc/ssl/certs) stays
        // in use unless the system's authorities are refused.
        if !trustsSystemCertificates {
          _ = library.easySetPointer(easy, CurlConstant.caInfo, nil)
          _ = library.easySetPointer(easy, CurlConstant.caPath, nil)
        }
        setBlob(certificateAuthorities, CurlConstant.caInfoBlob, easy, library)
      }
      if let pinnedPublicKeys {
        _ = pinnedPublicKeys.withCString {
          library.easySetPointer(easy, CurlConstant.pinnedPublicKey, $0)
        }
      }
      if let clientCertificate, let clientFormat {
        let type = clientFormat == .pkcs12 ? "P12" : "PEM"
        _ = type.withCString { library.easySetPointer(easy, CurlConstant.sslCertType, $0) }
        setBlob(clientCertificate, CurlConstant.sslCertBlob, easy, library)
        if let clientKey {
          _ = "PEM".withCString { library.easySetPointer(easy, CurlConstant.sslKeyType, $0) }
          setBlob(clientKey, CurlConstant.sslKeyBlob, easy, library)
        }
        if let password {
          _ = password.withCString { library.easySetPointer(easy, CurlConstant.keyPassword, $0) }
        }
      }
      if let minimumVersion {
        let value =
          minimumVersion == .tls13 ? CurlConstant.sslVersionTLS13 : CurlConstant.sslVersionTLS12
        _ = library.easySetLong(easy, CurlConstant.sslVersion, value)
      }
    }

    /// `struct curl_blob { void *data; size_t len; unsigned int flags; }`, with
    /// `CURL_BLOB_COPY`: libcurl keeps its own copy, so the struct and bytes may go at once.
    private func setBlob(
      _ data: Data, _ option: Int32, _ easy: CurlLibrary.Easy, _ library: CurlLibrary
    ) {
      data.withUnsafeBytes { bytes in
        var blob = CurlBlob(
          data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), length: bytes.count,
          flags: CurlConstant.blobCopy)
        _ = withUnsafePointer(to: &blob) { library.easySetPointer(easy, option, $0) }
      }
    }
  }

  /// The layout of libcurl's `struct curl_blob`.
  private struct CurlBlob {
    var data: UnsafeMutableRawPointer?
    var length: Int
    var flags: UInt32
  }
#endif
