import Foundation

/// The origin of an `http(s)` URL — scheme, host and port (RFC 6454) — the unit credentials
/// belong to.
///
/// Convoy's one rule for where credentials may travel lives here: ``RedirectPolicy`` drops them
/// on a hop this rule refuses, and an access token is only sent where the rule allows it from the
/// configuration's base URL.
public struct URLOrigin: Sendable, Hashable, CustomStringConvertible {
  /// `http` or `https`, lower-cased.
  public let scheme: String
  /// The host, lower-cased, without brackets around an IPv6 address.
  public let host: String
  /// The port, the scheme's default (80 or 443) when the URL names none.
  public let port: Int

  /// The origin of `url`, or `nil` when it is not an `http(s)` URL with a host.
  public init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host?.lowercased(), !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    self.port = url.port ?? (scheme == "https" ? 443 : 80)
  }

  /// `scheme://host:port`.
  public var description: String {
    let host = self.host.contains(":") ? "[\(self.host)]" : self.host
    return "\(scheme)://\(host):\(port)"
  }

  /// Whether the host is this machine: `localhost`, `127.0.0.0/8` or `::1`.
  public var isLoopback: Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// Whether credentials meant for `source` may be sent to `target`: the same origin, or the
  /// same host moved from plain HTTP on port 80 to HTTPS on port 443 (an upgrade exposes them
  /// to no one new). Anything that is not an `http(s)` URL with a host may receive none.
  public static func mayCarryCredentials(from source: URL, to target: URL) -> Bool {
    guard let from = URLOrigin(source), let to = URLOrigin(target) else { return false }
    if from == to { return true }
    return from.host == to.host && from.scheme == "http" && from.port == 80
      && to.scheme == "https" && to.port == 443
  }
}
