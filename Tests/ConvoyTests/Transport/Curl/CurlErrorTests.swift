#if os(Linux)
  @testable import Convoy
  import Testing

  @Suite struct CurlErrorTests {
    @Test(arguments: [
      (Int32(7), TransportFailure.Kind.cannotConnectToHost), (6, .cannotFindHost),
      (5, .cannotFindHost),
      (28, .timedOut), (35, .secureConnectionFailed), (51, .secureConnectionFailed),
      (58, .secureConnectionFailed), (60, .secureConnectionFailed), (77, .secureConnectionFailed),
      (52, .networkConnectionLost), (56, .networkConnectionLost), (8, .badServerResponse),
      (42, .cancelled), (1, .unsupportedURL), (26, .fileUnreadable), (27, .other),
    ])
    func mapsCurlCodesToTheFailureKindsEveryTransportShares(
      code: Int32, kind: TransportFailure.Kind
    ) {
      #expect(TransportFailure.Kind(curlCode: code) == kind)
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
      #expect(HTTPTransports.fallbackReason == nil)
      #expect(HTTPTransports.takeFallbackReason() == nil)
    }

    @Test func describesCodesWithLibcurlsOwnWords() throws {
      let library = try CurlLibrary.shared.get()
      #expect(library.describe(7) == "Couldn't connect to server")
      #expect(library.versionNumber >= CurlLibrary.minimumVersion)
    }
  }
#endif
