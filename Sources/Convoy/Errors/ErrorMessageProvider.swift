import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns any failure into a sentence a person can act on.
///
/// Cancellation is not a failure a person needs to hear about, so ``message(for:)`` returns `nil`
/// for it. A server's own message meant for people
/// (``ServerConnectionError/descriptiveServerError(_:_:)``) is shown as it is.
///
/// Change the words of a whole family, or answer specific errors (including an app's own types)
/// before the standard rules run:
///
/// ```swift
/// var provider = ErrorMessageProvider.standard
/// provider.wording[.offline] = ErrorMessage(title: "No signal", text: "Find Wi-Fi and retry.")
/// provider.override = { error in
///   (error as? CheckoutError).map { _ in ErrorMessage(text: "Your basket changed.") }
/// }
/// ```
public struct ErrorMessageProvider: Sendable {
  /// Consulted first; return `nil` to fall back to the standard rules.
  public var override: (@Sendable (any Error) -> ErrorMessage?)?

  /// The words for each category.
  public var wording: [ErrorCategory: ErrorMessage]

  /// Creates a provider with the standard English wording.
  public init(
    wording: [ErrorCategory: ErrorMessage] = ErrorMessageProvider.standardWording,
    override: (@Sendable (any Error) -> ErrorMessage?)? = nil
  ) {
    self.wording = wording
    self.override = override
  }

  /// The provider with the standard wording and no override.
  public static let standard = ErrorMessageProvider()

  /// The message for `error`, or `nil` when the error is a cancellation.
  public func message(for error: any Error) -> ErrorMessage? {
    if let message = override?(error) { return message }
    if error.isCancellation { return nil }
    if case .descriptiveServerError(let text, _) = error as? ServerConnectionError,
      !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    {
      return ErrorMessage(title: wording(for: .invalidInput).title, text: text)
    }
    return wording(for: Self.category(of: error))
  }

  private func wording(for category: ErrorCategory) -> ErrorMessage {
    wording[category] ?? Self.standardWording[category] ?? Self.fallback
  }

  /// The family `error` belongs to.
  public static func category(of error: any Error) -> ErrorCategory {
    switch error {
    case let error as any CategorizedError: error.category
    case let error as ServerConnectionError: category(of: error)
    case let error as URLError: category(of: TransportFailure(error).kind)
    case is DecodingError: .unreadableResponse
    case is EncodingError: .invalidRequest
    default: .unknown
    }
  }

  private static func category(of error: ServerConnectionError) -> ErrorCategory {
    switch error {
    case .unexpectedResponse, .decodingFailed: .unreadableResponse
    case .descriptiveServerError(_, let context):
      context.statusCode.map(category(ofStatus:)) ?? .unknown
    case .httpError(let status, _): category(ofStatus: status)
    case .invalidURL, .encodingFailed, .invalidHeader: .invalidRequest
    case .bodyNotResendable: .uploadNotResendable
    case .transportFailed(let failure, _): category(of: failure.kind)
    case .timedOut: .timedOut
    case .notAuthenticated: .notLoggedIn
    case .sessionExpired: .sessionExpired
    case .refreshLimitExceeded: .serverFailure
    case .insecureDestination: .insecureConnection
    case .cancelled: .unknown
    }
  }

  /// The family an HTTP status belongs to.
  public static func category(ofStatus status: Int) -> ErrorCategory {
    switch status {
    case 401: .notLoggedIn
    case 403: .forbidden
    // Only a proxy sends 407 (RFC 9110 §15.5.8): over plain HTTP it is the proxy's own answer.
    case 407: .proxyRefused
    case 404, 410: .notFound
    case 408: .timedOut
    case 429: .rateLimited
    case 400..<500: .invalidInput
    case 500..<600: .serverFailure
    default: .unreadableResponse
    }
  }

  /// The family a transport failure belongs to.
  public static func category(of kind: TransportFailure.Kind) -> ErrorCategory {
    switch kind {
    case .notConnectedToInternet: .offline
    case .cannotFindHost, .cannotConnectToHost, .networkConnectionLost: .serverUnreachable
    case .proxyRefused: .proxyRefused
    case .timedOut: .timedOut
    case .secureConnectionFailed: .insecureConnection
    case .clientCertificateRequired: .clientCertificateRequired
    case .untrustedServerCertificate, .pinnedKeyMismatch: .untrustedServer
    case .badServerResponse, .tooManyRedirects: .malformedResponse
    case .unsupportedURL, .fileUnreadable, .notSupportedByTransport: .invalidRequest
    case .requestBodyFailed: .uploadSourceFailed
    case .notCached: .notAvailableOffline
    case .readerTooSlow: .answerReadTooSlowly
    case .responseTooLarge: .responseTooLarge
    case .cancelled, .other: .unknown
    }
  }

  private static let fallback = ErrorMessage(
    title: "Something went wrong", text: "Something went wrong. Please try again.")

  /// The standard English words for each category.
  public static let standardWording: [ErrorCategory: ErrorMessage] = [
    .offline: ErrorMessage(
      title: "You're offline",
      text: "You appear to be offline. Check your connection and try again."),
    .serverUnreachable: ErrorMessage(
      title: "Can't reach the server",
      text: "The server can't be reached right now. Check your connection or try again later."),
    .timedOut: ErrorMessage(
      title: "Taking too long",
      text: "The server is taking too long to answer. Please try again in a moment."),
    .insecureConnection: ErrorMessage(
      title: "Connection not secure",
      text: "A secure connection to the server couldn't be made. Check the network you're on."),
    .clientCertificateRequired: ErrorMessage(
      title: "Certificate needed",
      text:
        "The server asks for a certificate from this device and didn't accept any that was "
        + "shown. Install the one your organization provides, or contact support."),
    .proxyRefused: ErrorMessage(
      title: "Proxy refused",
      text:
        "The proxy server on this network refused the connection. Check the proxy settings "
        + "and sign-in, then try again."),
    .untrustedServer: ErrorMessage(
      title: "Connection not trusted",
      text:
        "The server couldn't prove its identity, so nothing was sent. The network you're on may "
        + "be intercepting secure connections."),
    .notLoggedIn: ErrorMessage(
      title: "Please log in", text: "You need to log in to do that."),
    .sessionExpired: ErrorMessage(
      title: "Session expired", text: "Your session has expired. Please log in again."),
    .wrongCredentials: ErrorMessage(
      title: "Couldn't log in",
      text: "The email or password isn't right. Check them and try again."),
    .appMisconfigured: ErrorMessage(
      title: "App not set up",
      text: "This app isn't set up correctly to log in to this server. Please update the app "
        + "or contact support."),
    .loginIncomplete: ErrorMessage(
      title: "Login not completed",
      text: "The login wasn't completed in time. Please start it again."),
    .loginDeclined: ErrorMessage(
      title: "Login cancelled",
      text: "The login was cancelled or not approved. Start it again when you're ready."),
    .loginNotConfirmed: ErrorMessage(
      title: "Login not confirmed",
      text: "The login couldn't be confirmed. Please start it again."),
    .savedLoginUnreadable: ErrorMessage(
      title: "Please log in again",
      text: "Your saved login couldn't be read. Please log in again."),
    .forbidden: ErrorMessage(
      title: "Not allowed", text: "Your account isn't allowed to do that."),
    .notFound: ErrorMessage(
      title: "Not found", text: "What you were looking for isn't there anymore."),
    .invalidInput: ErrorMessage(
      title: "Couldn't do that",
      text: "The server couldn't accept that. Check what you entered and try again."),
    .rateLimited: ErrorMessage(
      title: "Slow down", text: "Too many attempts in a short time. Wait a moment and try again."),
    .serverFailure: ErrorMessage(
      title: "Server problem",
      text: "The server ran into a problem. Please try again later."),
    .malformedResponse: ErrorMessage(
      title: "Server problem",
      text: "The server sent a broken answer. Please try again later."),
    .responseTooLarge: ErrorMessage(
      title: "Answer too large",
      text: "The server sent more than this app accepts in one answer. Please try again later."),
    .unreadableResponse: ErrorMessage(
      title: "Unexpected answer",
      text: "The server sent an answer this app doesn't understand. Try updating the app."),
    .answerReadTooSlowly: ErrorMessage(
      title: "Couldn't keep up",
      text: "The app read the server's answer too slowly, so it was stopped. Please try again."),
    .uploadSourceFailed: ErrorMessage(
      title: "Upload stopped",
      text: "The data being sent couldn't be read to the end, so the upload stopped. Please try "
        + "again."),
    .uploadNotResendable: ErrorMessage(
      title: "Upload must start over",
      text: "The server asked for the upload to be sent again, but it can be sent only once. "
        + "Please start it again."),
    .invalidRequest: ErrorMessage(
      title: "Couldn't send that",
      text: "This request couldn't be sent. Please update the app or contact support."),
    .notAvailableOffline: ErrorMessage(
      title: "Not available offline",
      text: "This hasn't been saved on this device yet. Connect to the internet and try again."),
    .storageFull: ErrorMessage(
      title: "Not enough space",
      text: "There isn't enough free space to save this. Free up some space and try again."),
    .fileNotSaved: ErrorMessage(
      title: "Couldn't save the file",
      text: "The file couldn't be saved there. Check that the folder exists and can be written to."),
    .unknown: fallback,
  ]
}
