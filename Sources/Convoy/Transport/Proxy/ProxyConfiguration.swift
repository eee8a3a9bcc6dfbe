import Foundation

/// A proxy a transport sends every call through, configured by the app rather than read from
/// the environment.
///
/// ```swift
/// let proxy = ProxyConfiguration(
///   kind: .http, host: "proxy.corp.example", port: 3128,
///   credentials: ProxyConfiguration.Credentials(user: "app", password: "s3cret"),
///   bypassing: ["localhost", ".internal.example"])
/// let transport = try CurlTransport(tls: .platform, proxy: proxy)
/// ```
///
/// ``CurlTransport`` honours it (an explicit proxy replaces `http_proxy`, `https_proxy` and
/// `no_proxy`). `URLSessionTransport` takes none: FoundationNetworking ignores
/// `connectionProxyDictionary`, and on Apple platforms the session configuration's own
/// dictionary is the way. The password never appears in a description or a log.
public struct ProxyConfiguration: Sendable, Hashable, CustomStringConvertible {
  /// How the proxy is spoken to.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// An HTTP proxy: plain HTTP calls go to it as absolute-URI requests, HTTPS calls through a
    /// `CONNECT` tunnel, so the proxy never sees their content.
    case http
    /// A SOCKS5 proxy, which also resolves the host names (`socks5h`).
    case socks5
  }

  /// A user name and password for the proxy (HTTP Basic, or SOCKS5's user/password method).
  public struct Credentials: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password; never shown.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
      self.user = user
      self.password = password
    }

    /// `user:<redacted>`.
    public var description: String { "\(user):\(SecretRedactor.mask)" }
  }

  /// How the proxy is spoken to.
  public var kind: Kind
  /// The proxy's host name or address.
  public var host: String
  /// The proxy's port.
  public var port: Int
  /// Credentials, when the proxy requires them.
  public var credentials: Credentials?
  /// Hosts reached directly: a name matches itself and its subdomains (`example.com` also
  /// covers `api.example.com`), an address matches itself, `*` matches every host.
  public var bypassing: [String]

  /// Creates a proxy configuration.
  public init(
    kind: Kind, host: String, port: Int, credentials: Credentials? = nil, bypassing: [String] = []
  ) {
    self.kind = kind
    self.host = host
    self.port = port
    self.credentials = credentials
    self.bypassing = bypassing
  }

  /// `http://proxy.corp.example:3128 as app:<redacted>, bypassing localhost`.
  public var description: String {
    var text = "\(kind.rawValue)://\(host):\(port)"
    if let credentials { text += " as \(credentials)" }
    if !bypassing.isEmpty { text += ", bypassing " + bypassing.joined(separator: ", ") }
    return text
  }
}
