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
/// The wait holds no thread: dispatch read sources on a queue of its own accept the browser's
/// connection and read its request as bytes arrive, so a login that takes minutes costs none of
/// the global queue's few threads (which Convoy's transports and the app's own work share).
///
/// ```swift
/// let listener = try LoopbackRedirectListener(timeout: 300) { url in
///   print("Open this page to log in: \(url)")
/// }
/// try await connection.login(with: .authorizationCode(through: listener))
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
  // `closed` guards the descriptor: it is closed exactly once.
  private let state = Locked((closed: false, used: false))

  /// Everything below is touched on `queue` only.
  private let queue = DispatchQueue(label: "Convoy.LoopbackRedirectListener")
  private var continuation: CheckedContinuation<URL, any Error>?
  private var outcome: Result<URL, any Error>?
  private var acceptSource: (any DispatchSourceRead)?
  private var deadline: (any DispatchSourceTimer)?
  private var clients: [Int32: Client] = [:]
  private var nextSerial = 0

  /// A browser connection being read: its read source and the bytes of its head so far.
  private struct Client {
    var source: any DispatchSourceRead
    /// Tells this connection from a later one that reuses its descriptor.
    var serial: Int
    var head: [UInt8] = []
  }

  /// At most this many browser connections are read at once; more are closed at once.
  private static let clientLimit = 16
  /// A browser connection that sends no complete request within this many seconds is closed.
  private static let clientTimeout: TimeInterval = 2

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
        queue.async { self.startWaiting(continuation) }
      }
    } onCancel: {
      queue.async { self.finish(.failure(ServerConnectionError.cancelled)) }
    }
  }

  private func closeSocket() {
    let shouldClose = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    if shouldClose { close(listeningSocket) }
  }

  // MARK: - Waiting (on `queue`)

  private func startWaiting(_ continuation: CheckedContinuation<URL, any Error>) {
    if let outcome {
      // Cancelled before the wait began.
      continuation.resume(with: outcome)
      return
    }
    self.continuation = continuation
    guard Self.makeNonBlocking(listeningSocket) else {
      finish(.failure(BrowserLoginError.listenerFailed(String(cString: strerror(errno)))))
      return
    }
    let accepting = DispatchSource.makeReadSource(fileDescriptor: listeningSocket, queue: queue)
    accepting.setEventHandler { [unowned self] in acceptWaitingClients() }
    // The descriptor is closed only once the source let go of it.
    accepting.setCancelHandler { [self] in closeSocket() }
    acceptSource = accepting
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + timeout)
    timer.setEventHandler { [unowned self] in
      finish(.failure(BrowserLoginError.timedOut(self.timeout)))
    }
    deadline = timer
    accepting.resume()
    timer.resume()
  }

  private func acceptWaitingClients() {
    while outcome == nil {
      let client = accept(listeningSocket, nil, nil)
      guard client >= 0 else { return }  // EAGAIN: none left for now.
      guard clients.count < Self.clientLimit, Self.makeNonBlocking(client) else {
        close(client)
        continue
      }
      #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      let source = DispatchSource.makeReadSource(fileDescriptor: client, queue: queue)
      source.setEventHandler { [unowned self] in receiveRequest(from: client) }
      source.setCancelHandler { close(client) }
      nextSerial += 1
      let serial = nextSerial
      clients[client] = Client(source: source, serial: serial)
      source.resume()
      // A browser that opens a connection and sends nothing must not keep it forever.
      queue.asyncAfter(deadline: .now() + Self.clientTimeout) { [weak self] in
        // The descriptor may have been closed and reused by a later connection meanwhile.
        guard let self, clients[client]?.serial == serial else { return }
        drop(client)
      }
    }
  }

  /// Takes what `client` sent; once its head is whole (or too long, or the browser closed),
  /// answers it and, if it is the redirect, ends the wait.
  private func receiveRequest(from client: Int32) {
    guard var connection = clients[client] else { return }
    var buffer = [UInt8](repeating: 0, count: 2_048)
    var isOver = false
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        connection.head += buffer[0..<count]
        if connection.head.count >= 8_192 || Self.isComplete(connection.head) { break }
        continue
      }
      // 0: the browser closed; -1 with EAGAIN: nothing more for now; anything else: broken.
      isOver = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
      break
    }
    clients[client] = connection
    guard isOver || connection.head.count >= 8_192 || Self.isComplete(connection.head) else {
      return
    }
    let redirect = serve(client, head: connection.head)
    drop(client)
    if let redirect { finish(.success(redirect)) }
  }

  private func drop(_ client: Int32) {
    clients.removeValue(forKey: client)?.source.cancel()
  }

  /// Ends the wait once: stops every source (which closes the sockets) and resumes the caller.
  private func finish(_ result: Result<URL, any Error>) {
    guard outcome == nil else { return }
    outcome = result
    deadline?.cancel()
    deadline = nil
    for client in Array(clients.keys) { drop(client) }
    if let acceptSource {
      acceptSource.cancel()
      self.acceptSource = nil
    } else {
      closeSocket()
    }
    continuation?.resume(with: result)
    continuation = nil
  }

  private static func isComplete(_ head: [UInt8]) -> Bool {
    head.count >= 4 && head.suffix(4) == [13, 10, 13, 10]
      || String(decoding: head, as: UTF8.self).contains("\r\n\r\n")
  }

  private static func makeNonBlocking(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFL, 0)
    return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
  }

  /// Answers the request whose head is `head` and returns the redirect when it is one.
  private func serve(_ client: Int32, head: [UInt8]) -> URL? {
    guard let target = Self.requestTarget(in: head),
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

  /// The target of a `GET` request line in `head`.
  private static func requestTarget(in head: [UInt8]) -> String? {
    let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
    let parts = requestLine.split(separator: " ")
    guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/") else { return nil }
    return String(parts[1])
  }

  /// Sends `text` on the non-blocking `client`; an answer of a few hundred bytes fits in the
  /// socket's buffer, and a browser that stopped reading gets what fitted.
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
