import Foundation

/// A WebSocket endpoint of a server, described like a request: its path under the connection's
/// base URL, query, headers, the subprotocols offered and whether it needs the session.
///
/// ```swift
/// let endpoint = WebSocketEndpoint(path: "v2/updates/live", subprotocols: ["chat.v1"])
/// ```
public struct WebSocketEndpoint: Sendable, Hashable {
  /// The path, resolved against the connection's base URL as a request's is.
  public var path: String
  /// Query items added to the URL.
  public var queryItems: [URLQueryItem]
  /// Header fields sent with the upgrade request, after the connection's defaults.
  public var headers: HTTPHeaders
  /// The subprotocols offered, most preferred first; the server picks one or none.
  public var subprotocols: [String]
  /// Whether the upgrade request carries the session's access token.
  public var requiresAuthentication: Bool
  /// Compression, limits and timeouts.
  public var options: WebSocketOptions
  /// Whether opening waits while the connection's ``ConnectivityMonitor`` says offline, up to
  /// the handshake's timeout, instead of failing at once; `nil` follows
  /// ``ServerConfiguration/waitsForConnectivity``. A ``ReconnectingWebSocket`` waits for the
  /// network before each reconnection whatever this says.
  public var waitsForConnectivity: Bool?

  /// Creates an endpoint.
  public init(
    path: String, queryItems: [URLQueryItem] = [], headers: HTTPHeaders = [:],
    subprotocols: [String] = [], requiresAuthentication: Bool = false,
    options: WebSocketOptions = WebSocketOptions(), waitsForConnectivity: Bool? = nil
  ) {
    self.waitsForConnectivity = waitsForConnectivity
    self.path = path
    self.queryItems = queryItems
    self.headers = headers
    self.subprotocols = subprotocols
    self.requiresAuthentication = requiresAuthentication
    self.options = options
  }
}
