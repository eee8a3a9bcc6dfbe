import Foundation

/// Everything that can go wrong with a call made through a ``ServerConnection``.
///
/// Each case carries an ``ErrorContext`` for developers (method, redacted URL, status, a short
/// redacted body excerpt). Words for people come from ``ErrorMessageProvider``, never from here.
public enum ServerConnectionError: Error, Sendable, Hashable {
  /// The answer could not be understood: not HTTP, or a form the request did not expect.
  case unexpectedResponse(ErrorContext)
  /// The server explained the failure in a message meant for people.
  case descriptiveServerError(String, ErrorContext)
  /// The server answered with a status the request does not accept.
  case httpError(Int, ErrorContext)
  /// The URL could not be built; the string says which part was wrong.
  case invalidURL(String)
  /// The request body could not be encoded; the string says why.
  case encodingFailed(String, ErrorContext)
  /// A header field cannot be sent: its name is not an HTTP token (a space, a colon, a line
  /// break) or its value holds a line break. The string is the field's name; nothing was sent.
  case invalidHeader(String, ErrorContext)
  /// No HTTP answer arrived: offline, refused, DNS, TLS, a transport timeout.
  case transportFailed(TransportFailure, ErrorContext)
  /// The answer arrived but its body did not match the response type.
  case decodingFailed(DecodingFailure, ErrorContext)
  /// Convoy's own deadline for the call or job passed.
  case timedOut(ErrorContext)
  /// The request needs a session and the connection has none.
  case notAuthenticated(ErrorContext)
  /// Renewing the session's token was refused; the session is gone until the next login.
  case sessionExpired(ErrorContext)
  /// Tokens were renewed more often than allowed in a short window: a server fault, not retried.
  case refreshLimitExceeded(ErrorContext)
  /// A token would have gone to another host than the configuration's, or over plain HTTP to a
  /// host that is not this machine; nothing was sent.
  case insecureDestination(ErrorContext)
  /// The request would have had to be sent again (the string says why: a redirect, a token
  /// renewal, a decision), but its body can be sent only once (``StreamedBody/Replay/oneShot``,
  /// or ``RequestBody/isReplayable`` false). The context holds the answer that asked for it.
  case bodyNotResendable(String, ErrorContext)
  /// The call was cancelled. Never shown to a person as a failure.
  case cancelled

  /// The developer context, when the case has one.
  public var context: ErrorContext? {
    switch self {
    case .unexpectedResponse(let context), .descriptiveServerError(_, let context),
      .httpError(_, let context), .encodingFailed(_, let context),
      .invalidHeader(_, let context),
      .transportFailed(_, let context), .decodingFailed(_, let context),
      .timedOut(let context), .notAuthenticated(let context), .sessionExpired(let context),
      .refreshLimitExceeded(let context), .insecureDestination(let context),
      .bodyNotResendable(_, let context):
      context
    case .invalidURL, .cancelled:
      nil
    }
  }

  /// Whether this error only says that the call was cancelled.
  public var isCancellation: Bool {
    if case .cancelled = self { return true }
    if case .transportFailed(let failure, _) = self { return failure.kind == .cancelled }
    return false
  }

  /// The HTTP status of the answer behind the error, if one arrived.
  public var statusCode: Int? {
    context?.statusCode
  }
}

extension ServerConnectionError: CustomStringConvertible {
  /// A developer-facing description with context and no secrets.
  public var description: String {
    switch self {
    case .unexpectedResponse(let context): "unexpected response: \(context)"
    case .descriptiveServerError(let message, let context): "server said \"\(message)\": \(context)"
    case .httpError(let status, let context): "HTTP \(status): \(context)"
    case .invalidURL(let reason): "invalid URL: \(reason)"
    case .encodingFailed(let reason, let context): "body encoding failed (\(reason)): \(context)"
    // Quoted with its escapes, so a name holding a line break shows where it breaks.
    case .invalidHeader(let name, let context):
      "header \(name.debugDescription) cannot be sent: \(context)"
    case .transportFailed(let failure, let context): "transport failed \(failure): \(context)"
    case .decodingFailed(let failure, let context): "\(failure): \(context)"
    // A job's deadline knows no single request, so its context is empty.
    case .timedOut(let context):
      context.description.isEmpty ? "timed out: the deadline passed" : "timed out: \(context)"
    case .notAuthenticated(let context): "not logged in: \(context)"
    case .sessionExpired(let context): "session expired, token renewal refused: \(context)"
    case .refreshLimitExceeded(let context): "too many token renewals: \(context)"
    case .insecureDestination(let context):
      "token withheld from an insecure destination: \(context)"
    case .bodyNotResendable(let reason, let context):
      "not sent again, its body can be sent only once (\(reason)): \(context)"
    case .cancelled: "cancelled"
    }
  }
}

extension ServerConnectionError: LocalizedError {
  /// The sentence ``ErrorMessageProvider/standard`` gives for this error, so that
  /// `error.localizedDescription` is already fit for people.
  public var errorDescription: String? {
    ErrorMessageProvider.standard.message(for: self)?.text
  }
}

extension Error {
  /// Whether the error only says that work was cancelled (Convoy's, Swift's or URLSession's).
  public var isCancellation: Bool {
    switch self {
    case let error as ServerConnectionError: error.isCancellation
    case is CancellationError: true
    case let error as URLError: error.code == .cancelled
    default: false
    }
  }
}
