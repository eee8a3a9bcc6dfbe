import Foundation

/// The transport a ``ServerConnection`` uses when it is given none: the platform's preferred one,
/// shared by the whole process.
///
/// On Linux that is ``CurlTransport`` whenever the system libcurl is 7.68 or newer, because
/// FoundationNetworking's `URLSession` costs several times its CPU per request (see
/// `Docs/Performance.md`); otherwise, and on Apple platforms always, it is
/// ``URLSessionTransport``.
///
/// ```swift
/// let transport = CookieTransport(wrapping: PlatformTransport.shared, jar: CookieJar())
/// ```
public enum PlatformTransport {
  /// The platform's preferred transport: one instance for the whole process, shared by every
  /// connection built without a transport of its own. A ``CurlTransport`` on Linux when libcurl
  /// is usable, else a ``URLSessionTransport``.
  ///
  /// Sharing it gives the process one curl thread and one pool of open connections on Linux (one
  /// `URLSession` elsewhere), however many connections it makes; a connection that needs its own
  /// is given one explicitly.
  public static let shared: any HTTPTransport = {
    #if os(Linux)
      if let transport = try? CurlTransport() { return transport }
    #endif
    return URLSessionTransport()
  }()

  /// Why ``shared`` falls back to `URLSession` on a platform that prefers curl, or `nil`
  /// when it does not fall back (always `nil` on Apple platforms).
  public static var fallbackReason: String? {
    #if os(Linux)
      CurlTransport.unavailability.map { "Convoy uses URLSession: \($0.reason)" }
    #else
      nil
    #endif
  }

  private static let fallbackNoticeGiven = Locked(false)

  /// ``fallbackReason`` the first time it is asked for in the process, `nil` afterwards and
  /// whenever there is no fallback, so the fallback is reported once: to the observers of the
  /// first connection that takes the platform default and has observers.
  static func takeFallbackReason() -> String? {
    guard let reason = fallbackReason else { return nil }
    let isFirst = fallbackNoticeGiven.withLock { given in
      defer { given = true }
      return !given
    }
    return isFirst ? reason : nil
  }
}
