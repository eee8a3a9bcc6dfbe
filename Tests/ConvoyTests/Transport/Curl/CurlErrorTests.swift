#if os(Linux)
  @testable import Convoy
  import Testing

  @Suite struct CurlErrorTests {
    @Test(arguments: [
      (Int32(7), TransportFailure.Kind.cannotConnectToHost), (6, .cannotFindHost),
      (5, .cannotFindHost),
      (28, .timedOut), (35, .secureConnectionFailed), (51, .untrustedServerCertificate),
      (58, .secureConnectionFailed), (60, .untrustedServerCertificate),
      (77, .secureConnectionFailed),
      (90, .pinnedKeyMismatch), (97, .proxyRefused),
      (52, .networkConnectionLost), (56, .networkConnectionLost), (8, .badServerResponse),
      (42, .cancelled), (1, .unsupportedURL), (26, .fileUnreadable), (27, .other),
    ])
    func mapsCurlCodesToTheFailureKindsEveryTransportShares(
      code: Int32, kind: TransportFailure.Kind
    ) {
      #expect(TransportFailure.Kind(curlCode: code) == kind)
    }

    @Test(arguments: [
      (
        Int32(56), "Illegal or missing hexadecimal sequence in chunked-encoding",
        TransportFailure.Kind.badServerResponse
      ),
      (1, "Received HTTP/0.9 when not allowed", .badServerResponse),
      (1, "Protocol \"gopher\" not supported or disabled in libcurl", .unsupportedURL),
      (8, "Header without colon", .badServerResponse),
      (18, "transfer closed with 900 bytes remaining to read", .networkConnectionLost),
      (56, "Recv failure: Connection reset by peer", .networkConnectionLost),
      (35, "OpenSSL SSL_connect: Connection reset by peer", .secureConnectionFailed),
      (28, "Operation timed out after 1000 milliseconds with 0 bytes received", .timedOut),
    ])
    func tellsApartFaultsThatShareACodeByLibcurlsSentence(
      code: Int32, message: String, kind: TransportFailure.Kind
    ) {
      let failure = TransportFailure(curlCode: code, text: "generic", message: message)
      #expect(failure.kind == kind)
      #expect(failure.detail == "curl \(code): \(message)")
    }

    @Test func saysWhichCurlCodeFailedAndWhy() {
      let failure = TransportFailure(curlCode: 7, text: "Couldn't connect to server")
      #expect(failure.detail == "curl 7: Couldn't connect to server")
      #expect(ErrorMessageProvider.category(of: failure.kind) == .serverUnreachable)
    }

    @Test func saysWhyLibcurlCannotBeUsedWhenItIsMissing() {
      guard case .failure(let reason) = CurlLibrary.load("libcurl-missing-for-convoy.so.4") else {
        Issue.record("a missing library loaded")
        return
      }
      #expect(reason.reason.hasPrefix("libcurl-missing-for-convoy.so.4 could not be loaded"))
    }

    @Test func reportsNoFallbackWhileLibcurlIsUsable() {
      #expect(PlatformTransport.fallbackReason == nil)
      #expect(PlatformTransport.takeFallbackReason() == nil)
    }

    @Test func describesCodesWithLibcurlsOwnWords() throws {
      let library = try CurlLibrary.shared.get()
      #expect(library.describe(7) == "Couldn't connect to server")
      #expect(library.versionNumber >= CurlLibrary.minimumVersion)
    }
  }
#endif
