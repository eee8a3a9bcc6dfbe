import Foundation

/// A request to one of the authorization server's own endpoints (token, device authorization,
/// revocation): a form-encoded `POST` with the client authenticated as it is configured
/// (RFC 6749 §2.3.1), whose refusal is an ``AuthorizationError``.
///
/// A conforming type gives the ``client``, the ``endpoint`` and its ``formParameters``; the
/// method, path, decisions, headers and body follow from them, the same for every endpoint.
///
/// ```swift
/// struct TokenIntrospectionRequest: OAuthFormRequest {
///   typealias Response = JSONResponse<[String: Bool]>
///   var token: String
///   var client: OAuthClient
///   var endpoint = "o/introspect/"
///   var formParameters: [String: String] { ["token": token] }
/// }
/// ```
public protocol OAuthFormRequest: RequestDescribing {
  /// The client asking, and how it authenticates.
  var client: OAuthClient { get }
  /// The endpoint: a path or an absolute URL.
  var endpoint: String { get }
  /// The request's own parameters; the client's authentication parameters are added to them.
  var formParameters: [String: String] { get }
}

extension OAuthFormRequest {
  /// `POST`.
  public var method: HTTPMethod { .post }
  /// The ``endpoint``.
  public var path: String { endpoint }
  /// The standard chain with RFC 6749 §5.2 refusals read first: a refusal is an
  /// ``AuthorizationError``.
  public var decisions: [any ResponseDecision]? { AuthorizationErrorDecoding.chain }
  /// HTTP Basic client authentication when the client is configured so.
  public var headers: HTTPHeaders { client.authenticationHeaders }
  /// ``formParameters`` and the client's authentication parameters, form-encoded.
  public var body: RequestBody? {
    var parameters = formParameters
    parameters.merge(client.authentication().parameters) { _, client in client }
    // RFC 6749 §4.3.2 names the bare media type, without a charset parameter.
    let encoded = FormURLEncoder().encode(parameters.mapValues(FormValue.string))
    return .data(Data(encoded.utf8), contentType: "application/x-www-form-urlencoded")
  }
}
