import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ErrorMessageProviderTests {
  private static let context = ErrorContext(
    method: .get, url: URL(string: "https://h.example/v2/places")!, statusCode: 500,
    body: Data("oops".utf8))

  /// Every case of every error Convoy produces, plus foreign errors a call can surface.
  static let everyError: [any Error] = {
    var errors: [any Error] = [
      ServerConnectionError.unexpectedResponse(context),
      ServerConnectionError.invalidURL("the URL has no host"),
      ServerConnectionError.encodingFailed("NaN", context),
      ServerConnectionError.decodingFailed(
        DecodingFailure(
          reason: .keyNotFound, responseType: "Place", codingPath: "id", debugDescription: "x"),
        context),
      ServerConnectionError.timedOut(context),
      ServerConnectionError.notAuthenticated(context),
      ServerConnectionError.sessionExpired(context),
      ServerConnectionError.refreshLimitExceeded(context),
      ServerConnectionError.insecureDestination(context),
      SessionStoreError.corrupt(location: "/tmp/s.json", reason: "not a saved session"),
      SessionStoreError.unreadable(location: "/tmp/s.json", reason: "EACCES"),
      SessionStoreError.unwritable(location: "/tmp/s.json", reason: "EROFS"),
      ServerConnectionError.descriptiveServerError("   ", context),
      DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad")),
      EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "nan")),
      NSError(domain: "Mystery", code: 42),
      StreamFormatError.lineTooLong(line: 3, limit: 1024),
      StreamFormatError.invalidUTF8(line: 7),
      StreamFormatError.eventTooLarge(limit: 8_388_608),
      JSONLinesDecodingError(
        line: 2,
        failure: DecodingFailure(
          reason: .keyNotFound, responseType: "Place", codingPath: "id", debugDescription: "x")),
    ]
    errors += (100...599).map { ServerConnectionError.httpError($0, context) }
    errors += TransportFailure.Kind.allCases.filter { $0 != .cancelled }.map {
      ServerConnectionError.transportFailed(TransportFailure(kind: $0, detail: "d"), context)
    }
    errors += urlErrorCodes.filter { $0 != .cancelled }.map { URLError($0) }
    return errors
  }()

  static let urlErrorCodes: [URLError.Code] = [
    .unknown, .cancelled, .badURL, .timedOut, .unsupportedURL, .cannotFindHost,
    .cannotConnectToHost, .networkConnectionLost, .dnsLookupFailed, .httpTooManyRedirects,
    .resourceUnavailable, .notConnectedToInternet, .redirectToNonExistentLocation,
    .badServerResponse, .userCancelledAuthentication, .userAuthenticationRequired,
    .zeroByteResource, .cannotDecodeRawData, .cannotDecodeContentData, .cannotParseResponse,
    .appTransportSecurityRequiresSecureConnection, .fileDoesNotExist, .fileIsDirectory,
    .noPermissionsToReadFile, .dataLengthExceedsMaximum, .secureConnectionFailed,
    .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
    .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired,
    .cannotLoadFromNetwork, .cannotCreateFile, .cannotOpenFile, .cannotCloseFile,
    .cannotWriteToFile, .cannotRemoveFile, .cannotMoveFile, .downloadDecodingFailedMidStream,
    .downloadDecodingFailedToComplete, .internationalRoamingOff, .callIsActive,
    .dataNotAllowed, .requestBodyStreamExhausted, .backgroundSessionRequiresSharedContainer,
    .backgroundSessionInUseByAnotherProcess, .backgroundSessionWasDisconnected,
  ]

  /// Words that betray code rather than speak to a person.
  private static let jargon = [
    "Error", "error", "URL", "HTTP", "nil", "Optional", "Convoy", "Swift.", "Foundation", "NS",
    "Decoding", "status", "code", "exception", "(", "{", "0x",
  ]

  @Test(arguments: everyError.indices)
  func everyFailureGetsAPlainSentence(index: Int) throws {
    let error = Self.everyError[index]
    let message = try #require(ErrorMessageProvider.standard.message(for: error))
    #expect(message.text.count > 10, "\(error)")
    #expect(message.text.last == ".", "\(error): \(message.text)")
    #expect(message.text.rangeOfCharacter(from: .decimalDigits) == nil, "\(error): \(message.text)")
    for word in Self.jargon {
      #expect(!message.text.contains(word), "\(error): \(message.text)")
      #expect(!(message.title ?? "").contains(word), "\(error): \(message.title ?? "")")
    }
  }

  @Test func cancellationIsNeverWordedAsAFailure() {
    let cancellations: [any Error] = [
      ServerConnectionError.cancelled, CancellationError(), URLError(.cancelled),
      ServerConnectionError.transportFailed(
        TransportFailure(kind: .cancelled, detail: "d"), Self.context),
    ]
    for error in cancellations {
      #expect(error.isCancellation)
      #expect(ErrorMessageProvider.standard.message(for: error) == nil)
    }
  }

  @Test func offlineReadsAsActionable() {
    let error = ServerConnectionError.transportFailed(
      TransportFailure(URLError(.notConnectedToInternet)), Self.context)
    #expect(
      ErrorMessageProvider.standard.message(for: error)?.text
        == "You appear to be offline. Check your connection and try again.")
  }

  @Test func serverMessagesMeantForPeopleAreShownAsTheyAre() {
    let error = ServerConnectionError.descriptiveServerError("Invalid Token.", Self.context)
    #expect(ErrorMessageProvider.standard.message(for: error)?.text == "Invalid Token.")
    #expect(error.localizedDescription == "Invalid Token.")
  }

  @Test func unreadableStreamsReadAsAnUnexpectedAnswer() {
    let errors: [any Error] = [
      StreamFormatError.lineTooLong(line: 3, limit: 1024),
      StreamFormatError.invalidUTF8(line: 7),
      StreamFormatError.eventTooLarge(limit: 8_388_608),
      JSONLinesDecodingError(
        line: 2,
        failure: DecodingFailure(
          reason: .typeMismatch, responseType: "Place", codingPath: "id", debugDescription: "x")),
    ]
    for error in errors {
      #expect(ErrorMessageProvider.category(of: error) == .unreadableResponse, "\(error)")
      #expect(
        ErrorMessageProvider.standard.message(for: error)
          == ErrorMessageProvider.standardWording[.unreadableResponse], "\(error)")
    }
  }

  @Test func aBrokenAnswerOrARedirectLoopIsTheServersFaultNotTheApps() {
    for kind in [TransportFailure.Kind.badServerResponse, .tooManyRedirects] {
      let error = ServerConnectionError.transportFailed(
        TransportFailure(kind: kind, detail: "test"), Self.context)
      #expect(ErrorMessageProvider.category(of: error) == .malformedResponse)
      let text = ErrorMessageProvider.standard.message(for: error)?.text ?? ""
      #expect(text == "The server sent a broken answer. Please try again later.")
      #expect(!text.localizedCaseInsensitiveContains("app"))
    }
  }

  @Test func statusesAreSortedIntoFamilies() {
    #expect(ErrorMessageProvider.category(ofStatus: 401) == .notLoggedIn)
    #expect(ErrorMessageProvider.category(ofStatus: 404) == .notFound)
    #expect(ErrorMessageProvider.category(ofStatus: 429) == .rateLimited)
    #expect(ErrorMessageProvider.category(ofStatus: 422) == .invalidInput)
    #expect(ErrorMessageProvider.category(ofStatus: 503) == .serverFailure)
  }

  @Test func appsCanRewordAFamilyOrAnswerTheirOwnErrors() {
    struct CheckoutChanged: Error {}
    var provider = ErrorMessageProvider.standard
    provider.wording[.offline] = ErrorMessage(title: "No signal", text: "Find Wi-Fi and retry.")
    provider.override = { error in
      error is CheckoutChanged ? ErrorMessage(text: "Your basket changed.") : nil
    }
    #expect(provider.message(for: URLError(.notConnectedToInternet))?.title == "No signal")
    #expect(provider.message(for: CheckoutChanged())?.text == "Your basket changed.")
    #expect(
      provider.message(for: URLError(.timedOut))
        == ErrorMessageProvider.standard.message(for: URLError(.timedOut)))
  }
}
