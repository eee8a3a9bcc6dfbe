import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Brings a browser login back to a command-line tool: listens on `127.0.0.1` at a port the
/// system picks (RFC 8252 §7.3), shows the authorization URL through `open`, and returns the
/// server's redirect to `http://127.0.0.1:<port>/callback`.
///
/// It listens from `init` (so ``redirectURI`` names the real port) until the redirect arrived,
/// the timeout passed (``BrowserLoginError/timedOut(_:)``) or the task was cancelled; it serves
/// one login. Only the loopback interface is bound: nothing on the network can reach it. Other
/// requests (a browser's `favicon.ico`) get a 404 and are otherwise ignored.
///
/// ```swift
/// let listener = try LoopbackRedirectListener(timeout: 300) { url in
///   print("Open this page to log in: \(url)")
/// }
/// try await connection.login(through: listener)
/// ```
public final class LoopbackRedirectListener: AuthorizationUserAgent, @unchecked Sendable {
  /// `http://127.0.0.1:<port><path>`; register it with the client (servers that follow RFC 8252
  /// §7.3 accept any port).
  public let redirectURI: URL
  /// How long to wait for the browser to come back, in seconds.
  public let timeout: TimeInterval

  private let open: @Sendable (URL) -> Void
  private let path: String
  private let listeningSocket: Int32
  // `closed` and `cancelled` guard the descriptor: it is closed exactly once.
  private let state = Locked((closed: false, cancelled: false, used: false))

  /// Starts listening on `127.0.0.1` at an ephemeral port.
  ///
  /// - Parameters:
  ///   - path: The redirect's path.
  ///   - timeout: Seconds to wait for the browser; 5 minutes by default.
  ///   - open: Shows the authorization URL: launch a browser, or print it for the person.
  /// - Throws: ``BrowserLoginError/listenerFailed(_:)`` when no socket can be bound.
  public init(
    path: String = "/callback", timeout: TimeInterval = 300,
    open: @escaping @Sendable (URL) -> Void
  ) throws(BrowserLoginError) {
    self.path = path.hasPrefix("/") ? path : "/" + path
    self.timeout = timeout
    self.open = open
    let (socket, port) = try Self.openSocket()
    self.listeningSocket = socket
    guard let url = URL(string: "http://127.0.0.1:\(port)\(self.path)") else {
      close(socket)
      throw .listenerFailed("no redirect URI for path \(path)")
    }
    redirectURI = url
  }

  deinit {
    closeSocket()
  }

  /// Shows `url` through `open` and waits for the redirect.
  public func authorize(at url: URL) async throws -> URL {
    let alreadyUsed = state.withLock { state in
      defer { state.used = true }
      return state.used
    }
    guard !alreadyUsed else { throw BrowserLoginError.listenerFailed("it served a login already") }
    open(url)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: self.waitForRedirect()) }
      }
    } onCancel: {
      state.withLock { $0.cancelled = true }
    }
  }

  private func closeSocket() {
    let shouldClose = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    if shouldClose { close(listeningSocket) }
  }

  // Polls in short slices so that a cancellation or the deadline ends the wait promptly.
  private func waitForRedirect() -> Result<URL, any Error> {
    defer { closeSocket() }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if state.withLock({ $0.cancelled }) { return .failure(ServerConnectionError.cancelled) }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return .failure(BrowserLoginError.timedOut(timeout)) }
      var descriptor = pollfd(fd: listeningSocket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(remaining, 0.1) * 1_000))
      if ready < 0, errno != EINTR {
        return .failure(BrowserLoginError.listenerFailed(String(cString: strerror(errno))))
      }
      guard ready > 0 else { continue }
      let client = accept(listeningSocket, nil, nil)
      guard client >= 0 else { continue }
      if let redirect = serve(client) { return .success(redirect) }
    }
  }

  /// Reads one request from `client`, answers it, and returns the redirect when it is one.
  private func serve(_ client: Int32) -> URL? {
    defer { close(client) }
    // A browser that opens a connection and sends nothing must not stall the listener.
    var limit = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    guard let target = Self.readRequestTarget(client),
      let redirect = URL(string: "http://127.0.0.1:\(redirectURI.port ?? 0)\(target)"),
      redirect.path == path
    else {
      Self.respond(
        "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", to: client)
      return nil
    }
    let page =
      "<!doctype html><meta charset=utf-8><title>Login</title>"
      + "<p>You can close this window and return to the application.</p>"
    Self.respond(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        + "Content-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n" + page, to: client)
    return redirect
  }

  /// The target of a `GET` request line, reading at most 8 KiB of head.
  private static func readRequestTarget(_ client: Int32) -> String? {
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 2_048)
    while head.count < 8_192 {
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      head += buffer[0..<count]
      if head.count >= 4, head.suffix(4) == [13, 10, 13, 10] { break }
      if String(decoding: head, as: UTF8.self).contains("\r\n\r\n") { break }
    }
    let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
    let parts = requestLine.split(separator: " ")
    guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
    return String(parts[1])
  }

  private static func respond(_ text: String, to client: Int32) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { buffer in
        #if canImport(Darwin)
          send(client, buffer.baseAddress, buffer.count, 0)
        #else
          send(client, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        #endif
      }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// A socket listening on `127.0.0.1` at a port the system chose, and that port.
  private static func openSocket() throws(BrowserLoginError) -> (Int32, Int) {
    #if canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw .listenerFailed(String(cString: strerror(errno))) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound, listen(descriptor, 8) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw .listenerFailed(reason)
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }
}
