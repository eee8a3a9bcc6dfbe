import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Signs requests that need the session: `Authorization: <type> <token>`.
///
/// Convoy adds it, last among the adapters, to every request whose
/// ``RequestDescribing/authenticationRequirement`` is ``AuthenticationRequirement/accessToken``.
/// A token expiring within the configured margin is renewed first. The token goes only to the
/// configuration's own host, and over plain HTTP only to this machine.
struct AccessTokenSigning: RequestAdapter {
  let controller: SessionController

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    guard let url = request.url, Self.mayCarryToken(to: url, configuration: context.configuration)
    else { throw ServerConnectionError.insecureDestination(context.errorContext()) }
    let token: AccessToken
    do {
      token = try await controller.currentToken()
    } catch let refusal as SessionController.Refusal {
      throw refusal.error(context: context)
    }
    var signed = request
    signed.setValue(token.authorizationHeaderValue, forHTTPHeaderField: "Authorization")
    return signed
  }

  /// Whether a token may travel to `url`: the configuration's host, over HTTPS or to loopback.
  static func mayCarryToken(to url: URL, configuration: ServerConfiguration) -> Bool {
    guard let host = url.host?.lowercased(), host == configuration.baseURL.host?.lowercased()
    else { return false }
    return url.scheme?.lowercased() == "https" || isLoopback(host)
  }

  static func isLoopback(_ host: String) -> Bool {
    let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
  }
}

extension SessionController.Refusal {
  /// The error a request sees, with its own context.
  func error(context: RequestContext) -> ServerConnectionError {
    switch self {
    case .notLoggedIn: .notAuthenticated(context.errorContext())
    case .expired: .sessionExpired(context.errorContext())
    case .refreshLimitExceeded: .refreshLimitExceeded(context.errorContext())
    case .cancelled: .cancelled
    }
  }
}
