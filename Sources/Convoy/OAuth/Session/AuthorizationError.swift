import Foundation

/// An authorization server's refusal at its token, device-authorization or revocation endpoint:
/// the error answer of RFC 6749 §5.2 (`{"error": "invalid_grant", …}`).
///
/// The ``code`` decides the words a person sees (``ErrorMessageProvider``): `invalid_grant` means
/// wrong credentials, `invalid_client` and `unauthorized_client` an app that is not set up for
/// this server. The server's `error_description` is meant for developers (RFC 6749 §5.2), so it
/// is kept in ``serverDescription`` and never shown as it is.
public struct AuthorizationError: CategorizedError, Sendable, Hashable, CustomStringConvertible {
  /// An OAuth2 error code (RFC 6749 §5.2, RFC 8628 §3.5, RFC 7009 §2.2.1).
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as the server sent it.
    public let rawValue: String
    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code itself.
    public var description: String { rawValue }

    /// The request is malformed.
    public static let invalidRequest = Code(rawValue: "invalid_request")
    /// The client is unknown or its authentication failed.
    public static let invalidClient = Code(rawValue: "invalid_client")
    /// The grant (password, code, refresh token, device code) is wrong, expired or revoked.
    public static let invalidGrant = Code(rawValue: "invalid_grant")
    /// The client may not use this grant.
    public static let unauthorizedClient = Code(rawValue: "unauthorized_client")
    /// The server does not support this grant.
    public static let unsupportedGrantType = Code(rawValue: "unsupported_grant_type")
    /// A scope asked for is unknown or not allowed.
    public static let invalidScope = Code(rawValue: "invalid_scope")
    /// The person (or the server) refused.
    public static let accessDenied = Code(rawValue: "access_denied")
    /// The device code expired before the person approved it (RFC 8628).
    public static let expiredToken = Code(rawValue: "expired_token")
    /// The person has not approved the device yet (RFC 8628).
    public static let authorizationPending = Code(rawValue: "authorization_pending")
    /// Poll less often (RFC 8628).
    public static let slowDown = Code(rawValue: "slow_down")
    /// The server failed.
    public static let serverError = Code(rawValue: "server_error")
    /// The server is overloaded or down for maintenance.
    public static let temporarilyUnavailable = Code(rawValue: "temporarily_unavailable")
    /// The server cannot revoke this kind of token (RFC 7009).
    public static let unsupportedTokenType = Code(rawValue: "unsupported_token_type")
  }

  /// What the server said went wrong.
  public var code: Code
  /// The server's `error_description`, for developers.
  public var serverDescription: String?
  /// The call: method, redacted URL, status, redacted body excerpt.
  public var context: ErrorContext
  /// The `grant_type` of the token request refused, e.g. `password`; `nil` for other endpoints.
  public var grantType: String?

  /// Creates an error.
  public init(
    code: Code, serverDescription: String? = nil, context: ErrorContext, grantType: String? = nil
  ) {
    self.code = code
    self.serverDescription = serverDescription
    self.context = context
    self.grantType = grantType
  }

  /// Reads an RFC 6749 §5.2 error answer; `nil` when the body is not one.
  public init?(body: Data, context: ErrorContext, grantType: String? = nil) {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let code = object["error"] as? String, !code.isEmpty
    else { return nil }
    self.init(
      code: Code(rawValue: code), serverDescription: object["error_description"] as? String,
      context: context, grantType: grantType)
  }

  /// The HTTP status of the answer.
  public var statusCode: Int? { context.statusCode }

  /// The family of words a person sees.
  public var category: ErrorCategory {
    switch code {
    // Only for the password grant is a refused grant a wrong password. A refused code (or its
    // PKCE verifier) means the login could not be confirmed, a refused device code that it was
    // not approved in time; a refused refresh token is handled by the session as its expiry.
    case .invalidGrant:
      switch grantType {
      case "password", nil: .wrongCredentials
      case "urn:ietf:params:oauth:grant-type:device_code": .loginIncomplete
      default: .loginNotConfirmed
      }
    case .invalidClient, .unauthorizedClient, .unsupportedGrantType, .invalidScope,
      .invalidRequest, .unsupportedTokenType:
      .appMisconfigured
    // The person pressed Deny or Cancel (RFC 6749 §4.1.2.1, RFC 8628 §3.5).
    case .accessDenied: .loginDeclined
    case .expiredToken: .loginIncomplete
    case .serverError, .temporarilyUnavailable: .serverFailure
    default: statusCode.map(ErrorMessageProvider.category(ofStatus:)) ?? .unknown
    }
  }

  /// `authorization server refused (invalid_grant): POST https://… → 400: …`.
  public var description: String {
    "authorization server refused (\(code)): \(context)"
  }
}

/// Turns an authorization server's error answers (RFC 6749 §5.2) into ``AuthorizationError``,
/// so that a login says "wrong password" or "app not set up" rather than "please log in".
///
/// Token, device-authorization and revocation requests put it in their chain before
/// ``StatusValidation``; an error answer that is not OAuth JSON goes on to it unchanged.
struct AuthorizationErrorDecoding: ResponseDecision, DeadlineAware {
  /// Fails an error status whose body is an OAuth2 error; proceeds otherwise.
  func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    let status = response.statusCode
    guard !context.acceptableStatusCodes.contains(status),
      let error = AuthorizationError(
        body: response.data, context: context.errorContext(statusCode: status, body: response.data),
        grantType: (request as? AccessTokenRequest)?.grant.grantType)
    else { return .proceed(response) }
    return .fail(error)
  }

  /// The chain of requests to an authorization server's endpoints: retry what is transient,
  /// read OAuth2 errors, validate, decode.
  static let chain: [any ResponseDecision] = [
    RetryDecision(), AuthorizationErrorDecoding(), StatusValidation(), ResponseDecoding(),
  ]
}

extension AuthorizationError: StatusCarryingError {}
