import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Which redirects Convoy follows and how the next request is made, the same for every transport.
///
/// - 301, 302 and 303 turn a `POST` into a `GET` without body (303 turns every method but
///   `HEAD` into `GET`), as browsers do.
/// - 307 and 308 keep the method and the body (FoundationNetworking on Linux drops the body); a
///   body that is not replayable (``TransportRequest/isBodyReplayable``) is never resent, so that
///   redirect comes back as the answer.
/// - Credentials (`Authorization`, `Proxy-Authorization`, `Cookie`) are dropped when the next hop
///   goes to another origin (scheme, host or port, ``URLOrigin``); an upgrade from `http` on
///   port 80 to `https` on port 443 of the same host keeps them.
/// - More than ``maximumHops`` redirects fail with ``TransportFailure/Kind/tooManyRedirects``.
public struct RedirectPolicy: Sendable, Hashable {
  /// The most redirects followed for one call; `0` follows none and returns the 3xx answer.
  public var maximumHops: Int

  /// Creates a policy.
  public init(maximumHops: Int = 10) {
    self.maximumHops = max(0, maximumHops)
  }

  /// Follows up to 10 redirects.
  public static let standard = RedirectPolicy()
  /// Follows none: a 3xx answer is returned to the pipeline as it is.
  public static let never = RedirectPolicy(maximumHops: 0)

  /// The statuses that redirect.
  public static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

  private static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

  /// The request for the next hop, or `nil` when `response` is not a redirect to follow.
  ///
  /// - Parameters:
  ///   - request: The request that got `response`.
  ///   - response: The answer.
  ///   - hopsSoFar: How many redirects were already followed.
  /// - Throws: A ``TransportFailure`` when the hop limit is passed.
  public func nextRequest(
    after request: TransportRequest, response: HTTPResponse, hopsSoFar: Int
  ) throws(TransportFailure) -> TransportRequest? {
    guard maximumHops > 0, Self.redirectStatuses.contains(response.statusCode),
      let location = response.headers["Location"],
      let current = request.urlRequest.url,
      let target = URL(string: location, relativeTo: current)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else { return nil }
    guard hopsSoFar < maximumHops else {
      throw TransportFailure(
        kind: .tooManyRedirects, detail: "more than \(maximumHops) redirects")
    }
    var next = request
    next.urlRequest.url = target
    let method = HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
    let becomesGet =
      (response.statusCode == 303 && method != .head)
      || ([301, 302].contains(response.statusCode) && method == .post)
    let resendsBody =
      next.urlRequest.httpBody != nil || next.bodyFileURL != nil || next.bodyStream != nil
    // A body that must not be sent twice ends the exchange with the redirect as the answer.
    let mayResend = request.isBodyReplayable && request.bodyStream?.isReplayable != false
    if !becomesGet, resendsBody, !mayResend { return nil }
    if becomesGet {
      next.urlRequest.httpMethod = HTTPMethod.get.rawValue
      next.urlRequest.httpBody = nil
      next.bodyFileURL = nil
      next.bodyStream = nil
      next.urlRequest.setValue(nil, forHTTPHeaderField: "Content-Type")
      next.urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
    }
    if !Self.mayKeepCredentials(from: current, to: target) {
      for name in Self.credentialHeaders { next.urlRequest.setValue(nil, forHTTPHeaderField: name) }
    }
    return next
  }

  /// Whether credentials may follow a hop from `source` to `target`: the rule of
  /// ``URLOrigin/mayCarryCredentials(from:to:)``, the same one that guards access tokens.
  public static func mayKeepCredentials(from source: URL, to target: URL) -> Bool {
    URLOrigin.mayCarryCredentials(from: source, to: target)
  }
}
