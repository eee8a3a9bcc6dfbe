import Foundation

/// A value that describes one API call and names the type of its answer.
///
/// Only ``method``, ``path`` and ``Response`` are required; everything else has a default,
/// so a GET endpoint costs three lines:
///
/// ```swift
/// struct PlacesRequest: RequestDescribing {
///   typealias Response = JSONResponse<[Place]>
///   var method: HTTPMethod { .get }
///   var path: String { "v2/places" }
/// }
/// ```
public protocol RequestDescribing: Sendable {
  /// The type the answer is turned into.
  associatedtype Response: ResponseDescribing

  /// The HTTP method.
  var method: HTTPMethod { get }

  /// The path relative to the configuration's base URL; a leading slash is optional. Segments are
  /// percent-encoded where needed, existing `%XX` escapes are kept.
  var path: String { get }

  /// Query items appended to the URL. Default: none.
  var queryItems: [URLQueryItem] { get }

  /// Headers for this call, overriding the configuration's defaults. Default: none.
  var headers: HTTPHeaders { get }

  /// The body. Default: none.
  var body: RequestBody? { get }

  /// Whether the call must be signed with the session's access token. Default: ``AuthenticationRequirement/none``.
  var authenticationRequirement: AuthenticationRequirement { get }

  /// The status codes that count as success. Default: `200..<300`.
  var acceptableStatusCodes: Range<Int> { get }

  /// A per-request timeout for the whole call, overriding the configuration's. Default: `nil`.
  var timeout: TimeInterval? { get }

  /// A decoder for this request only, overriding the connection's. Default: `nil`.
  var decoder: JSONDecoder? { get }

  /// Whether a failed attempt may be sent again even though the method is not idempotent.
  /// Default: `false`.
  var allowsRetry: Bool { get }

  /// How this request is retried after a transient failure, overriding the configuration's
  /// ``ServerConfiguration/retryPolicy``. Default: `nil`.
  var retryPolicy: RetryPolicy? { get }

  /// Whether this call waits for the network instead of failing while the connection's
  /// monitor says offline, overriding the configuration's
  /// ``ServerConfiguration/waitsForConnectivity`` (a sync that may wait, a search that must
  /// not). Default: `nil`.
  var waitsForConnectivity: Bool? { get }

  /// How large this request's answer may be, overriding the configuration's
  /// ``ServerConfiguration/responseLimits`` (an export endpoint that sends more than the rest,
  /// say). Default: `nil`.
  var responseLimits: ResponseLimits? { get }

  /// Adapters that run after the connection's for this request only. Default: none.
  var adapters: [any RequestAdapter] { get }

  /// The decisions that judge this request's answers, replacing the connection's chain.
  /// Default: `nil`, the connection's chain.
  var decisions: [any ResponseDecision]? { get }

  /// How this request uses the connection's ``HTTPCache``, if it has one.
  /// Default: ``CachePolicy/useProtocolPolicy``.
  var cachePolicy: CachePolicy { get }
}

extension RequestDescribing {
  /// No query items.
  public var queryItems: [URLQueryItem] { [] }
  /// No extra headers.
  public var headers: HTTPHeaders { HTTPHeaders() }
  /// No body.
  public var body: RequestBody? { nil }
  /// No authentication.
  public var authenticationRequirement: AuthenticationRequirement { .none }
  /// Any 2xx status.
  public var acceptableStatusCodes: Range<Int> { 200..<300 }
  /// The configuration's timeout.
  public var timeout: TimeInterval? { nil }
  /// The connection's decoder.
  public var decoder: JSONDecoder? { nil }
  /// Only idempotent methods are retried.
  public var allowsRetry: Bool { false }
  /// The configuration's retry policy.
  public var retryPolicy: RetryPolicy? { nil }
  /// The configuration's choice.
  public var waitsForConnectivity: Bool? { nil }
  /// The configuration's response limits.
  public var responseLimits: ResponseLimits? { nil }
  /// No request-specific adapters.
  public var adapters: [any RequestAdapter] { [] }
  /// The connection's decisions.
  public var decisions: [any ResponseDecision]? { nil }
  /// The HTTP caching rules of RFC 9111.
  public var cachePolicy: CachePolicy { .useProtocolPolicy }
}
