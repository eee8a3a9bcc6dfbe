import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Signs requests that need the session: `Authorization: <type> <token>`.
///
/// Convoy adds it, last among the adapters, to every request whose
/// ``RequestDescribing/authenticationRequirement`` is ``AuthenticationRequirement/accessToken``.
/// A token expiring within the configured margin is renewed first. The token goes only to the
/// configuration's own origin (scheme, host and port: ``URLOrigin``), and over plain HTTP only
/// to this machine.
struct AccessTokenSigning: RequestAdapter, DeadlineAware {
  let controller: SessionController

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    guard let url = request.url, Self.mayCarryToken(to: url, configuration: context.configuration)
    else { throw ServerConnectionError.insecureDestination(context.errorContext()) }
    let token: AccessToken
    do {
      token = try await controller.currentToken(until: context.deadline, for: context.span)
    } catch let refusal as SessionController.Refusal {
      throw refusal.error(context: context)
    }
    var signed = request
    signed.setValue(token.authorizationHeaderValue, forHTTPHeaderField: "Authorization")
    return signed
  }

  /// Whether a token may travel to `url`: an origin that may carry the base URL's credentials
  /// (``URLOrigin/mayCarryCredentials(from:to:)``), over HTTPS or to this machine.
  static func mayCarryToken(to url: URL, configuration: ServerConfiguration) -> Bool {
    guard URLOrigin.mayCarryCredentials(from: configuration.baseURL, to: url),
      let origin = URLOrigin(url)
    else { return false }
    return origin.scheme == "https" || origin.isLoopback
  }
}

extension SessionController.Refusal {
  /// The error a request sees, with its own context; a refused client is the token endpoint's
  /// own ``AuthorizationError``, worded ``ErrorCategory/appMisconfigured``.
  func error(context: RequestContext) -> any Error {
    error(context: context.errorContext())
  }

  /// The error for a caller that has no request context of its own (a WebSocket's upgrade).
  func error(context: ErrorContext) -> any Error {
    switch self {
    case .notLoggedIn: ServerConnectionError.notAuthenticated(context)
    case .expired: ServerConnectionError.sessionExpired(context)
    case .clientRefused(let error): error
    case .refreshLimitExceeded: ServerConnectionError.refreshLimitExceeded(context)
    case .cancelled: ServerConnectionError.cancelled
    case .timedOut: ServerConnectionError.timedOut(context)
    }
  }
}

extension SessionController: CallAuthentication {
  var signingAdapter: any RequestAdapter { AccessTokenSigning(controller: self) }
  var renewalDecision: any ResponseDecision { AccessTokenRefresh(controller: self) }
}
