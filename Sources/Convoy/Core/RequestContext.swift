import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What adapters and decisions know about the call they work on.
public struct RequestContext: Sendable {
  /// The connection's configuration.
  public var configuration: ServerConfiguration
  /// The request's method.
  public var method: HTTPMethod
  /// The request's path as described.
  public var path: String
  /// Whether the request is signed with the session's token.
  public var authenticationRequirement: AuthenticationRequirement
  /// The statuses the request accepts.
  public var acceptableStatusCodes: Range<Int>
  /// The decoder for this call: the request's, or else the connection's.
  public var decoder: JSONDecoder
  /// Whether the request may be sent again: idempotent, or opted in, and with a replayable body.
  public var isRetryable: Bool
  /// Whether the body, if any, can be sent again (``RequestBody/isReplayable``); a request that
  /// never left the client may be retried whatever its method, when this holds.
  public var isBodyReplayable: Bool = true
  /// Which attempt this is, from 1; retries and restarts both count.
  public var attempt: Int
  /// How many times the call was retried so far after a transient failure (restarts do not count).
  public var retries: Int
  /// The retry policy for this call: the request's, else the configuration's.
  public var retryPolicy: RetryPolicy
  /// When the whole call, retries and their waits included, must be over.
  public var deadline: Date
  /// The request as sent in this attempt, once built; `nil` while adapters run.
  public var sentRequest: URLRequest?
  /// The decision chain judging this attempt's answer, for decisions that restart with a
  /// changed chain.
  public var decisions: [any ResponseDecision] = []
  /// The call's span, when its connection traces calls: the parent of a token renewal the call
  /// starts.
  var span: (any CallSpan)? = nil

  /// A developer context for errors about this call.
  public func errorContext(statusCode: Int? = nil, body: Data? = nil) -> ErrorContext {
    ErrorContext(method: method, url: sentRequest?.url, statusCode: statusCode, body: body)
  }
}
