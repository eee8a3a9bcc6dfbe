import Foundation

/// What shows the authorization page to the person and brings the server's redirect back: a
/// browser and a loopback listener on the command line (``LoopbackRedirectListener``),
/// `ASWebAuthenticationSession` in an app (`WebAuthenticationSessionAgent`), a scripted
/// browser in tests.
public protocol AuthorizationUserAgent: Sendable {
  /// Where the server sends the person back (RFC 6749 §3.1.2), registered with the client.
  var redirectURI: URL { get }

  /// Shows `url` and returns the URL the server redirected to, with its `code` and `state` (or
  /// `error`) in the query.
  /// - Throws: ``BrowserLoginError`` when the person never came back in time,
  ///   ``ServerConnectionError/cancelled`` when cancelled.
  func authorize(at url: URL) async throws -> URL
}

/// A browser login that did not come back with a usable answer.
public enum BrowserLoginError: CategorizedError, Sendable, Hashable, CustomStringConvertible {
  /// The redirect carried another `state` than the one sent: not an answer to this login,
  /// possibly a forged one (RFC 6749 §10.12). Nothing was exchanged.
  case stateMismatch
  /// The redirect carried neither a `code` nor an `error`.
  case missingCode
  /// The browser did not come back within the timeout, in seconds.
  case timedOut(TimeInterval)
  /// The redirect listener could not be set up; the string says why.
  case listenerFailed(String)

  /// ``ErrorCategory/loginIncomplete`` when the person did not come back in time (or could
  /// not be waited for); ``ErrorCategory/loginNotConfirmed`` when the answer that came back
  /// cannot be used.
  public var category: ErrorCategory {
    switch self {
    case .stateMismatch, .missingCode: .loginNotConfirmed
    case .timedOut, .listenerFailed: .loginIncomplete
    }
  }

  /// A developer-facing description.
  public var description: String {
    switch self {
    case .stateMismatch: "the redirect's state does not match the login's"
    case .missingCode: "the redirect carried no code"
    case .timedOut(let seconds): "the browser did not come back within \(Int(seconds)) s"
    case .listenerFailed(let reason): "the loopback redirect listener failed: \(reason)"
    }
  }
}
