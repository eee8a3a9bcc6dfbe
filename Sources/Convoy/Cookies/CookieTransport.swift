import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends and stores cookies from a ``CookieJar`` around any transport, so that cookies behave the
/// same whichever transport moves the bytes (``URLSessionTransport`` keeps none of its own).
///
/// It sits where ``CachingTransport`` sits, above the wire and below ``RedirectPolicy``, so it
/// sees every hop of a redirect: a cookie set by a 302 goes with the next request it matches,
/// and a cookie never goes to a host, path or plain-HTTP URL its attributes exclude. A `Cookie`
/// header the request already carries is kept, the jar's cookies after it.
///
/// ```swift
/// let jar = CookieJar(file: URL(fileURLWithPath: "/var/lib/app/cookies.json"))
/// let connection = ServerConnection(
///   configuration: .production,
///   transport: CookieTransport(wrapping: PlatformTransport.shared, jar: jar))
/// ```
public struct CookieTransport: HTTPTransport {
  /// The transport that moves the bytes.
  public let transport: any HTTPTransport
  /// Where cookies are kept.
  public let jar: CookieJar

  /// Wraps `transport` so that its calls send and store the cookies of `jar`.
  public init(wrapping transport: any HTTPTransport, jar: CookieJar) {
    self.transport = transport
    self.jar = jar
  }

  /// Adds the jar's cookies, sends, and stores the answer's `Set-Cookie` fields before the
  /// caller sees its head.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    let answer = try await transport.send(withCookies(request))
    if let url = request.urlRequest.url {
      jar.store(setCookieFields: answer.head.headers.values(for: "Set-Cookie"), from: url)
    }
    return answer
  }

  private func withCookies(_ request: TransportRequest) -> TransportRequest {
    guard let url = request.urlRequest.url, let cookies = jar.cookieHeader(for: url) else {
      return request
    }
    var request = request
    let own = request.urlRequest.value(forHTTPHeaderField: "Cookie")
    request.urlRequest.setValue(
      own.map { "\($0); \(cookies)" } ?? cookies, forHTTPHeaderField: "Cookie")
    return request
  }
}
