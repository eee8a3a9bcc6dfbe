/// The families of failure that need different words for people.
///
/// ``ErrorMessageProvider`` first sorts an error into a category, then words the category, so an
/// app can change the wording of a whole family in one place.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable, Codable {
  /// The device is offline.
  case offline
  /// The server could not be reached (refused, DNS, connection dropped).
  case serverUnreachable
  /// The server took too long.
  case timedOut
  /// A secure connection could not be made.
  case insecureConnection
  /// The server asked for a client certificate and accepted none: none was shown, or it does not
  /// trust the one shown.
  case clientCertificateRequired
  /// A proxy refused to carry the call: it wants other credentials (a `407`, or a refused
  /// `CONNECT` tunnel), or refuses the destination.
  case proxyRefused
  /// The server could not prove it is the server asked for (an untrusted certificate, a public
  /// key that matches no pin): nothing was sent to it.
  case untrustedServer
  /// The user must log in first.
  case notLoggedIn
  /// The session ended and the user must log in again.
  case sessionExpired
  /// A login was refused: the email, password or code is wrong or no longer valid.
  case wrongCredentials
  /// The app is not set up for this server: its client id or secret is unknown, or it may not
  /// log in this way.
  case appMisconfigured
  /// A login in the browser or on another device was not completed in time: it timed out, or
  /// its codes expired before the person approved it.
  case loginIncomplete
  /// The person declined or cancelled the login at the authorization server (`access_denied`).
  case loginDeclined
  /// The login came back but could not be confirmed: the server refused its code or PKCE
  /// verifier, or the answer could not be trusted (another `state`, no code).
  case loginNotConfirmed
  /// A saved login could not be read back.
  case savedLoginUnreadable
  /// The server says the user may not do this.
  case forbidden
  /// The thing asked for does not exist.
  case notFound
  /// The server refused the input.
  case invalidInput
  /// Too many requests in a short time.
  case rateLimited
  /// The server failed (5xx).
  case serverFailure
  /// The server broke the protocol: a garbled status line or header, a broken chunked body, a
  /// redirect loop. The server's fault, not the app's; a moment later it may answer properly.
  case malformedResponse
  /// The answer was larger than the app accepts (``ResponseLimits``).
  case responseTooLarge
  /// The answer could not be read (bad JSON, unexpected form).
  case unreadableResponse
  /// The app read a streamed answer more slowly than it arrived, on a transport that cannot
  /// pause, and the stream was stopped (``TransportFailure/Kind/readerTooSlow``).
  case answerReadTooSlowly
  /// The app built a request that cannot be sent (bad URL, unencodable body).
  case invalidRequest
  /// A streamed request body stopped: its source failed
  /// (``TransportFailure/Kind/requestBodyFailed``).
  case uploadSourceFailed
  /// The server asked for a request to be sent again whose body can be sent only once
  /// (``ServerConnectionError/bodyNotResendable(_:_:)``).
  case uploadNotResendable
  /// The answer was asked for from the cache only, and none is saved.
  case notAvailableOffline
  /// A download could not be saved: the disk is full.
  case storageFull
  /// A download could not be saved where it was asked to go.
  case fileNotSaved
  /// Anything else.
  case unknown
}
