#if canImport(FoundationNetworking) || os(Linux)
  import Testing

  @testable import Convoy

  /// libcurl's sentences sorted into the kinds its codes blur. The OpenSSL 3 sentences are those
  /// curl printed against a Python `ssl` server requiring a client certificate: none shown under
  /// TLS 1.3, a stranger's under TLS 1.2, none under TLS 1.2.
  @Suite struct LibcurlErrorMessageTests {
    @Test(arguments: [
      // TLS 1.3: the alert comes after the handshake, as a read error (56).
      (
        TransportFailure.Kind.networkConnectionLost,
        "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0"
      ),
      (
        .secureConnectionFailed,
        "OpenSSL/3.0.19: error:0A000418:SSL routines::tlsv1 alert unknown ca"
      ),
      (
        .secureConnectionFailed,
        "error:14094412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate"
      ),
      (
        .other,
        "OpenSSL SSL_read: error:0A000412:SSL routines::ssl/tls alert bad certificate, errno 0"
      ),
    ])
    func aServersAlertAboutTheClientsCertificateSaysACertificateIsRequired(
      code: TransportFailure.Kind, message: String
    ) {
      #expect(LibcurlErrorMessage.refine(code, message: message) == .clientCertificateRequired)
    }

    @Test func aHandshakeFailureOrTheServersOwnCertificateIsNotBlamedOnTheClient() {
      #expect(
        LibcurlErrorMessage.refine(
          .secureConnectionFailed,
          message: "OpenSSL/3.0.19: error:0A000410:SSL routines::sslv3 alert handshake failure"
        )
          == .secureConnectionFailed)
      #expect(
        LibcurlErrorMessage.refine(
          .secureConnectionFailed,
          message: "SSL certificate problem: unable to get local issuer certificate")
          == .untrustedServerCertificate)
    }
  }
#endif
