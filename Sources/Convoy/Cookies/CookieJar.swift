import Foundation

/// Convoy's own cookie store (RFC 6265), the same for every transport.
///
/// ``CookieTransport`` consults it for every hop of every call, redirects included, so a cookie
/// set by a redirect goes with the next request it matches. It is in memory unless given a file:
/// then cookies with an expiry date are written to that file (mode 0600, replaced atomically)
/// after every change and read back when the jar is made; session cookies never are.
///
/// ```swift
/// let jar = CookieJar()
/// let transport = CookieTransport(wrapping: PlatformTransport.shared, jar: jar)
/// let connection = ServerConnection(configuration: .production, transport: transport)
/// // At logout:
/// jar.removeAll()
/// ```
public final class CookieJar: Sendable {
  /// Limits that keep a hostile server from growing the jar without bound (RFC 6265 §6.1 asks
  /// for at least 4096 bytes per cookie, 50 per domain, 3000 in all).
  public struct Limits: Sendable, Hashable {
    /// The most bytes of name and value in one cookie; a larger one is ignored.
    public var bytesPerCookie: Int
    /// The most cookies per domain; the oldest go first.
    public var cookiesPerDomain: Int
    /// The most cookies in the jar; the oldest go first.
    public var cookies: Int

    /// Creates limits; the defaults are RFC 6265's minimums.
    public init(bytesPerCookie: Int = 4096, cookiesPerDomain: Int = 50, cookies: Int = 3000) {
      self.bytesPerCookie = bytesPerCookie
      self.cookiesPerDomain = cookiesPerDomain
      self.cookies = cookies
    }
  }

  private let state = Locked<[Cookie]>([])
  private let file: URL?
  private let limits: Limits
  private let clock: any ConvoyClock

  /// Creates a jar.
  ///
  /// - Parameters:
  ///   - file: Where persistent cookies are kept between runs; `nil` keeps them in memory only.
  ///     A file that cannot be read starts an empty jar.
  ///   - limits: Size and count limits.
  ///   - clock: The clock expiry is judged by: real time by default; a test passes the
  ///     `TestClock` of its connection's ``ServerConfiguration/clock``.
  public init(file: URL? = nil, limits: Limits = Limits(), clock: any ConvoyClock = .system) {
    self.file = file
    self.limits = limits
    self.clock = clock
    if let file, let data = try? Data(contentsOf: file),
      let saved = try? JSONDecoder().decode([Cookie].self, from: data)
    {
      let now = clock.now
      state.withLock { $0 = saved.filter { !$0.isExpired(at: now) } }
    }
  }

  /// Every cookie the jar holds that has not expired, oldest first.
  public var cookies: [Cookie] {
    let now = clock.now
    return state.withLock { $0.filter { !$0.isExpired(at: now) } }
  }

  /// The `Cookie` header value for a request to `url`, or `nil` when no cookie matches
  /// (RFC 6265 §5.4: longer paths first, then older cookies first).
  /// `now` is the jar's clock unless given.
  public func cookieHeader(for url: URL, now: Date? = nil) -> String? {
    let now = now ?? clock.now
    let matching = state.withLock { cookies in
      cookies.filter { !$0.isExpired(at: now) && $0.matches(url) }
    }
    guard !matching.isEmpty else { return nil }
    return
      matching
      .sorted { ($0.path.count, $1.created) > ($1.path.count, $0.created) }
      .map { "\($0.name)=\($0.value)" }
      .joined(separator: "; ")
  }

  /// Takes the `Set-Cookie` fields of an answer from `url`: new cookies, replacements, and
  /// deletions (an expiry in the past).
  /// `now` is the jar's clock unless given.
  public func store(setCookieFields values: [String], from url: URL, now: Date? = nil) {
    let now = now ?? clock.now
    let fields = SetCookieParser.fields(values)
    let parsed = fields.compactMap { SetCookieParser.cookie(from: $0, for: url, now: now) }
      .filter { $0.name.utf8.count + $0.value.utf8.count <= limits.bytesPerCookie }
    guard !parsed.isEmpty else { return }
    // Saved under the lock, so that two answers arriving together cannot write their snapshots
    // in the wrong order.
    state.withLock { cookies in
      for cookie in parsed {
        let existing = cookies.firstIndex {
          $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
        }
        var cookie = cookie
        // §5.3 step 11: a replacement keeps the creation time of the cookie it replaces.
        if let existing {
          cookie.created = cookies[existing].created
          cookies.remove(at: existing)
        }
        if !cookie.isExpired(at: now) { cookies.append(cookie) }
      }
      cookies.removeAll { $0.isExpired(at: now) }
      enforceLimits(&cookies)
      save(cookies)
    }
  }

  /// Forgets every cookie, and empties the file.
  public func removeAll() {
    state.withLock { cookies in
      cookies.removeAll()
      save([])
    }
  }

  private func enforceLimits(_ cookies: inout [Cookie]) {
    cookies.sort { $0.created < $1.created }
    var perDomain: [String: Int] = [:]
    for cookie in cookies { perDomain[cookie.domain, default: 0] += 1 }
    for (domain, count) in perDomain where count > limits.cookiesPerDomain {
      var excess = count - limits.cookiesPerDomain
      cookies.removeAll { cookie in
        guard excess > 0, cookie.domain == domain else { return false }
        excess -= 1
        return true
      }
    }
    if cookies.count > limits.cookies { cookies.removeFirst(cookies.count - limits.cookies) }
  }

  /// Writes the persistent cookies to a 0600 temporary file beside the target, then renames it
  /// over the target, so a crash leaves the old file or the new one and never a readable
  /// half (`Data.write(options: .atomic)` would create the file with the umask's mode).
  private func save(_ cookies: [Cookie]) {
    guard let file else { return }
    let persistent = cookies.filter { $0.expires != nil }
    guard let data = try? JSONEncoder().encode(persistent) else { return }
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
    guard
      FileManager.default.createFile(
        atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
    else { return }
    if rename(temporary.path, file.path) != 0 {
      try? FileManager.default.removeItem(at: temporary)
    }
  }
}
