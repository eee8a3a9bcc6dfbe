import Foundation

extension ServerConnection {
  /// The jar of the ``CookieTransport`` this connection sends through, found below its cache and
  /// request sharing; `nil` when the connection keeps no cookies.
  public var cookieJar: CookieJar? {
    var current: any HTTPTransport = transport
    // Bounded: each layer wraps one transport, and Convoy stacks at most three.
    for _ in 0..<8 {
      switch current {
      case let cookies as CookieTransport: return cookies.jar
      case let caching as CachingTransport: current = caching.transport
      case let coalescing as CoalescingTransport: current = coalescing.transport
      default: return nil
      }
    }
    return nil
  }

  /// Ends the session as ``logout()`` does (revoking its tokens where the server can) and, when
  /// `clearingCookies` is `true`, forgets every cookie in ``cookieJar`` too: a server's cookie
  /// session is a login of its own.
  ///
  /// The cookies go first, so they are gone even when the saved session cannot be removed.
  ///
  /// - Returns: What the server said to the revocation.
  /// - Throws: ``SessionStoreError`` when the saved session cannot be removed.
  @discardableResult
  public func logout(clearingCookies: Bool) async throws(SessionStoreError) -> RevocationOutcome {
    if clearingCookies { cookieJar?.removeAll() }
    return try await logout()
  }
}
