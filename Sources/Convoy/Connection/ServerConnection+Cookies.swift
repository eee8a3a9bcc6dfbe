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
}
