import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real HTTP/1.1 server on a loopback port whose answers and faults a test scripts, and which
/// records every request it receives.
///
/// Where ``StubTransport`` replaces the network, a mock server keeps it: the app's own transport
/// opens sockets, frames bodies, keeps connections alive and meets a server that hangs up in the
/// middle of a body, stalls, sends a broken head or throttles, exactly as it would in the field.
///
/// ```swift
/// let server = try await MockServer.started()
/// server.enqueue(.json([Place(id: 7, name: "Harbour")]))
/// let connection = ServerConnection(
///   configuration: ServerConfiguration(environment: .local, baseURL: server.baseURL))
/// let places = try await connection.execute(PlacesRequest()).value
/// let request = try await server.takeRequest()
/// #expect(request.method == "GET")
/// await server.shutdown()
/// ```
///
/// Answers come from routes first (``route(_:answer:)``, ``route(_:respond:)``, the latest
/// matching route wins), then from the queue (``enqueue(_:)``), in order; a request neither can
/// answer gets a 404 whose body says so. Every connection has a thread of its own, so a stalled
/// or throttled answer never holds up another, nor a thread of the app's.
public final class MockServer: Sendable {
  /// The loopback address a server listens on.
  public enum Host: Sendable, Equatable {
    /// `127.0.0.1`.
    case ipv4Loopback
    /// `::1`.
    case ipv6Loopback
  }

  /// What the server has seen so far.
  public struct Statistics: Sendable, Equatable {
    /// Requests received (heads read), including those a fault cut short.
    public var requestCount = 0
    /// Connections accepted.
    public var connectionsOpened = 0
    /// Connections closed, by either side.
    public var connectionsClosed = 0
    /// Bytes of answers the server has written to its connections: heads, bodies and their
    /// framing. A body cut short counts only what went out.
    public var bytesSent = 0

    /// Connections open now.
    public var openConnections: Int { connectionsOpened - connectionsClosed }
  }

  /// The largest request body the server reads and records; a larger one ends its connection.
  public static let maximumRecordedBodySize = 512 * 1024 * 1024

  /// Connections served at once; one more is closed at once (and counted as opened and closed).
  public static let maximumConnections = 256

  /// The address the server listens on.
  public let host: Host
  private let state = Locked(State())

  private struct State {
    var running = false
    var stopped = false
    var wake: (read: Int32, write: Int32) = (-1, -1)
    var port = 0
    var routes: [MockRoute] = []
    var queue: [MockAnswer] = []
    var requests: [RecordedRequest] = []
    var taken = 0
    var statistics = Statistics()
    var descriptors: Set<Int32> = []
    var acceptLoopRunning = false
    var waiters: [UUID: MockWaiter] = [:]
    var webSocketMessages: [WebSocketMessage] = []
    var takenWebSocketMessages = 0
    var webSocketCloseCodes: [WebSocketCloseCode] = []

    var snapshot: MockWaiter.Snapshot {
      MockWaiter.Snapshot(
        statistics: statistics, requests: requests, taken: taken,
        isQuiet: descriptors.isEmpty && !acceptLoopRunning,
        webSocketMessages: webSocketMessages.count, takenWebSocketMessages: takenWebSocketMessages,
        webSocketCloses: webSocketCloseCodes.count)
    }
  }

  /// A server that is not listening yet: script it, then ``start()``.
  public init(host: Host = .ipv4Loopback) {
    self.host = host
  }

  /// A server listening on a free loopback port.
  public static func started(host: Host = .ipv4Loopback) async throws -> MockServer {
    let server = MockServer(host: host)
    try await server.start()
    return server
  }

  deinit {
    stopAccepting()
  }

  // MARK: - Starting and stopping

  /// Starts listening on a free port of the loopback address; does nothing if already started.
  public func start() async throws {
    try startListening()
  }

  /// ``start()`` for a caller that cannot wait, such as a test harness's shared server made in
  /// a `static let`: binding a loopback socket never blocks.
  package func startListening() throws {
    guard !state.withLock({ $0.running || $0.stopped }) else { return }
    let (listener, port) = try MockSocket.listen(on: host)
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else {
      close(listener)
      throw MockServerError.couldNotListen(errno: errno)
    }
    state.withLock {
      $0.running = true
      $0.port = port
      $0.wake = (pipeEnds[0], pipeEnds[1])
      $0.acceptLoopRunning = true
    }
    let wake = pipeEnds[0]
    Thread.detachNewThread(named: "Mock \(port) accept") { [self] in
      acceptLoop(listener: listener, wake: wake)
    }
  }

  /// Stops the server: no new connections, every open one closed, every pause and stall ended.
  ///
  /// Returns once every connection's thread has finished (a route's closure that never returns
  /// is waited for at most 10 seconds). Requests recorded so far stay readable.
  public func shutdown() async {
    stopAccepting()
    try? await wait(for: "every connection's thread to finish", timeout: .seconds(10)) {
      $0.isQuiet
    }
    state.withLock { state in
      guard state.descriptors.isEmpty, !state.acceptLoopRunning, state.wake.read >= 0 else {
        return
      }
      close(state.wake.read)
      close(state.wake.write)
      state.wake = (-1, -1)
    }
  }

  /// Marks the server stopped and wakes every thread that waits on it.
  private func stopAccepting() {
    state.withLock { state in
      guard state.running else { return }
      state.running = false
      state.stopped = true
      var byte: UInt8 = 1
      _ = write(state.wake.write, &byte, 1)
      for descriptor in state.descriptors {
        MockSocket.shutDown(descriptor)
      }
    }
  }

  // MARK: - Where it listens

  /// The port the server listens on; 0 before ``start()``.
  public var port: Int { state.withLock { $0.port } }

  /// `http://127.0.0.1:<port>` (or `http://[::1]:<port>`).
  public var baseURL: URL {
    URL(string: "http://\(host == .ipv6Loopback ? "[::1]" : "127.0.0.1"):\(port)")!
  }

  /// The URL of `path` on this server; `path` may carry a query (`/search?q=kettle`).
  public func url(for path: String) -> URL {
    URL(string: baseURL.absoluteString + (path.hasPrefix("/") ? path : "/" + path))!
  }

  // MARK: - Scripting answers

  /// Answers the next request that no route matches with `answer`; answers are used in the order
  /// they were queued, each once.
  public func enqueue(_ answer: MockAnswer) {
    state.withLock { $0.queue.append(answer) }
  }

  /// Answers every request for `path`, whatever its method, with `answer`.
  ///
  /// A path ending in `*` matches every path that starts with what comes before it. The query is
  /// not part of the match. A route added later is tried first.
  public func route(_ path: String, answer: MockAnswer) {
    add(MockRoute(method: nil, path: path, source: .fixed(answer)))
  }

  /// Answers every `method` request for `path` with `answer`.
  public func route(_ method: HTTPMethod, _ path: String, answer: MockAnswer) {
    add(MockRoute(method: method, path: path, source: .fixed(answer)))
  }

  /// Answers every request for `path`, whatever its method, with what `respond` makes of the
  /// recorded request, body included; `respond` may take its time (it runs in a task, and the
  /// connection waits for it).
  public func route(
    _ path: String, respond: @escaping @Sendable (RecordedRequest) async -> MockAnswer
  ) {
    add(MockRoute(method: nil, path: path, source: .respond(respond)))
  }

  /// Answers every `method` request for `path` with what `respond` makes of it.
  public func route(
    _ method: HTTPMethod, _ path: String,
    respond: @escaping @Sendable (RecordedRequest) async -> MockAnswer
  ) {
    add(MockRoute(method: method, path: path, source: .respond(respond)))
  }

  private func add(_ route: MockRoute) {
    state.withLock { $0.routes.insert(route, at: 0) }
  }

  /// Where the answer for a request whose head is `head` comes from.
  private func source(for head: MockRequestReader.Head) -> MockRoute.Source {
    state.withLock { state in
      if let route = state.routes.first(where: { $0.matches(head.method, head.target) }) {
        return route.source
      }
      if !state.queue.isEmpty { return .fixed(state.queue.removeFirst()) }
      return .fixed(
        .text(
          "The mock server has no answer for \(head.method) \(head.target): add a route or enqueue"
            + " an answer.", status: 404))
    }
  }

  // MARK: - What it received

  /// Every request received so far, in the order they arrived.
  public var requests: [RecordedRequest] { state.withLock { $0.requests } }

  /// What the server has seen so far.
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// The next request not taken yet, in arrival order, waiting up to `timeout` for it to come.
  ///
  /// - Throws: ``MockServerError/timedOut(waitingFor:after:)`` when none comes in time.
  public func takeRequest(timeout: Duration = .seconds(10)) async throws -> RecordedRequest {
    let bound = ContinuousClock.now + timeout
    while true {
      let taken = state.withLock { state -> RecordedRequest? in
        guard state.taken < state.requests.count else { return nil }
        defer { state.taken += 1 }
        return state.requests[state.taken]
      }
      if let taken { return taken }
      // Another taker may win the request this wait sees; then wait for the next one.
      try await wait(
        for: "a request", timeout: max(.zero, ContinuousClock.now.duration(to: bound))
      ) { $0.taken < $0.requests.count }
    }
  }

  /// The first request received (taken or not) for which `predicate` holds, waiting up to
  /// `timeout` for it to come; it stays where it is for ``takeRequest(timeout:)``.
  ///
  /// A test that must act while a call is in flight (cancel it, say) waits here for the server
  /// to have the call's request, rather than sleeping and hoping it got there.
  ///
  /// - Throws: ``MockServerError/timedOut(waitingFor:after:)`` when none comes in time.
  @discardableResult
  public func waitForRequest(
    timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (RecordedRequest) -> Bool
  ) async throws -> RecordedRequest {
    try await wait(for: "a request that matches", timeout: timeout) {
      $0.requests.contains(where: predicate)
    }
    return requests.first(where: predicate)!
  }

  /// Waits until `condition` holds for the server's ``Statistics``, at most `timeout`.
  ///
  /// A test proves that a client abandoned a transfer with
  /// `try await server.waitUntil { $0.connectionsClosed == 1 }`: no sleeping, no guessing.
  ///
  /// - Throws: ``MockServerError/timedOut(waitingFor:after:)`` naming `description`.
  public func waitUntil(
    _ description: String = "a condition", timeout: Duration = .seconds(10),
    _ condition: @escaping @Sendable (Statistics) -> Bool
  ) async throws {
    try await wait(for: description, timeout: timeout) { condition($0.statistics) }
  }

  private func wait(
    for description: String, timeout: Duration,
    until condition: @escaping @Sendable (borrowing MockWaiter.Snapshot) -> Bool
  ) async throws {
    let id = UUID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let waiter = MockWaiter(continuation: continuation, condition: condition)
        let satisfied = state.withLock { state -> Bool in
          if waiter.isSatisfied(by: state.snapshot) { return true }
          state.waiters[id] = waiter
          return false
        }
        guard !satisfied else {
          continuation.resume()
          return
        }
        Task { [weak self] in
          try? await Task.sleep(for: timeout)
          self?.finishWaiter(
            id, with: MockServerError.timedOut(waitingFor: description, after: timeout))
        }
      }
    } onCancel: {
      finishWaiter(id, with: CancellationError())
    }
  }

  private func finishWaiter(_ id: UUID, with error: any Error) {
    state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: error)
  }

  /// Changes the state and resumes every waiter whose condition now holds.
  private func update(_ change: (inout State) -> Void) {
    let satisfied = state.withLock { state -> [MockWaiter] in
      change(&state)
      let ready = state.waiters.filter {
        $0.value.isSatisfied(by: state.snapshot)
      }
      for id in ready.keys { state.waiters[id] = nil }
      return Array(ready.values)
    }
    for waiter in satisfied { waiter.continuation.resume() }
  }

  // MARK: - Connections

  private func acceptLoop(listener: Int32, wake: Int32) {
    var connectionNumber = 0
    while MockSocket.waitReadable(listener, wake: wake, timeout: nil) {
      let descriptor = accept(listener, nil, nil)
      guard descriptor >= 0 else { continue }
      MockSocket.sendWithoutDelay(descriptor)
      connectionNumber += 1
      let number = connectionNumber
      var admitted = false
      update { state in
        state.statistics.connectionsOpened += 1
        if state.running && state.descriptors.count < MockServer.maximumConnections {
          state.descriptors.insert(descriptor)
          admitted = true
        } else {
          state.statistics.connectionsClosed += 1
        }
      }
      guard admitted else {
        close(descriptor)
        continue
      }
      Thread.detachNewThread(named: "Mock \(port) #\(number)") { [self] in
        serve(descriptor, number: number, wake: wake)
      }
    }
    close(listener)
    update { $0.acceptLoopRunning = false }
  }

  private func serve(_ descriptor: Int32, number: Int, wake: Int32) {
    var reader = MockRequestReader(descriptor: descriptor, wake: wake)
    let writer = MockAnswerWriter(descriptor: descriptor, wake: wake) { [self] count in
      update { $0.statistics.bytesSent += count }
    }
    var ending = MockAnswerWriter.Ending.close
    var index = 0
    serving: while true {
      let head: MockRequestReader.Head
      do {
        guard let next = try reader.readHead() else { break serving }
        head = next
      } catch .malformed(let reason) {
        _ = MockSocket.send(
          descriptor,
          Array(
            "HTTP/1.1 400 Bad Request\r\nContent-Length: \(reason.utf8.count)\r\nConnection: close\r\n\r\n\(reason)"
              .utf8))
        break serving
      } catch {
        break serving
      }
      let source = source(for: head)
      var bodyLimit: Int?
      if case .fixed(let answer) = source {
        switch answer.fault {
        case .hangUpAtRequestStart: bodyLimit = 0
        case .hangUpDuringRequestBody(let bytes): bodyLimit = bytes
        default: break
        }
      }
      if case .fixed(var refusal) = source, refusal.answersBeforeBody {
        // As a server refusing by the head alone: no `100 Continue`, no body read, and the
        // connection closes after the answer, since the body the client may still send is
        // left unread on it.
        let request = record(
          head, body: MockRequestReader.Body(), connection: number, index: index)
        refusal.closesConnection = true
        ending = writer.write(refusal, for: request)
        if ending == .close {
          MockSocket.awaitPeerClose(descriptor, wake: wake, timeout: .seconds(5))
        }
        break serving
      }
      if head.headers["Expect"]?.lowercased() == "100-continue", bodyLimit != 0 {
        _ = MockSocket.send(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
      }
      let body = reader.readBody(of: head, stoppingAfter: bodyLimit)
      let request = record(head, body: body, connection: number, index: index)
      index += 1
      if bodyLimit != nil || !body.isComplete { break serving }
      let answer: MockAnswer
      switch source {
      case .fixed(let fixed): answer = fixed
      case .respond(let respond): answer = waitOnThisThread { await respond(request) }
      }
      if let webSocket = answer.webSocket {
        serveWebSocket(
          webSocket, answer: answer, request: request, descriptor: descriptor, wake: wake,
          leftover: reader.takeBuffered())
        break serving
      }
      ending = writer.write(answer, for: request)
      if ending != .keepAlive { break serving }
    }
    if ending == .reset { MockSocket.reset(descriptor) }
    update { state in
      state.descriptors.remove(descriptor)
      close(descriptor)
      state.statistics.connectionsClosed += 1
    }
  }

  // MARK: - WebSockets

  /// What a WebSocket's script received, for the server's record.
  enum WebSocketRecord: Sendable {
    case message(WebSocketMessage)
    case close(WebSocketCloseCode)
  }

  /// Every message clients sent on this server's WebSockets, as scripts received them
  /// (``MockWebSocket/receive()``), in order.
  public var webSocketMessages: [WebSocketMessage] { state.withLock { $0.webSocketMessages } }

  /// The codes of the close frames clients sent, as scripts received them (1005 for a close
  /// without a code), in order.
  public var webSocketCloseCodes: [WebSocketCloseCode] {
    state.withLock { $0.webSocketCloseCodes }
  }

  /// The next WebSocket message a client sent that was not taken yet, waiting up to `timeout`
  /// for it to come.
  ///
  /// - Throws: ``MockServerError/timedOut(waitingFor:after:)`` when none comes in time.
  public func takeWebSocketMessage(timeout: Duration = .seconds(10)) async throws
    -> WebSocketMessage
  {
    let bound = ContinuousClock.now + timeout
    while true {
      let taken = state.withLock { state -> WebSocketMessage? in
        guard state.takenWebSocketMessages < state.webSocketMessages.count else { return nil }
        defer { state.takenWebSocketMessages += 1 }
        return state.webSocketMessages[state.takenWebSocketMessages]
      }
      if let taken { return taken }
      try await wait(
        for: "a WebSocket message", timeout: max(.zero, ContinuousClock.now.duration(to: bound))
      ) { $0.takenWebSocketMessages < $0.webSocketMessages }
    }
  }

  /// The code of the first close frame a client sent on a WebSocket, waiting up to `timeout` for
  /// one.
  ///
  /// - Throws: ``MockServerError/timedOut(waitingFor:after:)`` when none comes in time.
  public func webSocketCloseCode(timeout: Duration = .seconds(10)) async throws
    -> WebSocketCloseCode
  {
    try await wait(for: "a WebSocket close from the client", timeout: timeout) {
      $0.webSocketCloses > 0
    }
    return webSocketCloseCodes[0]
  }

  /// Answers `request`'s upgrade and runs the script on this connection's thread.
  private func serveWebSocket(
    _ webSocket: MockWebSocketAnswer, answer: MockAnswer, request: RecordedRequest,
    descriptor: Int32, wake: Int32, leftover: [UInt8]
  ) {
    guard request.headers["Upgrade"]?.lowercased() == "websocket",
      let key = request.headers["Sec-WebSocket-Key"]
    else {
      let reason = "The mock server answers this path with a WebSocket: send an upgrade."
      _ = MockSocket.send(
        descriptor,
        Array(
          "HTTP/1.1 400 Bad Request\r\nContent-Length: \(reason.utf8.count)\r\nConnection: close\r\n\r\n\(reason)"
            .utf8))
      return
    }
    var head =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Accept: \(WebSocketHandshake.accept(for: key))\r\n"
    if let subprotocol = webSocket.subprotocol {
      head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
    }
    let offered = request.headers.values(for: "Sec-WebSocket-Extensions")
      .contains { $0.lowercased().contains("permessage-deflate") }
    var compression: PerMessageDeflateParameters?
    if let agreed = webSocket.compression, offered {
      head += "Sec-WebSocket-Extensions: \(agreed.headerValue)\r\n"
      compression = agreed.parameters
    }
    for field in answer.headers { head += "\(field.name): \(field.value)\r\n" }
    let bytes = Array((head + "\r\n").utf8)
    guard MockSocket.send(descriptor, bytes) else { return }
    update { $0.statistics.bytesSent += bytes.count }
    let thread = MockConnectionThread()
    let socket = MockWebSocket(
      request: request, descriptor: descriptor, wake: wake, leftover: leftover, thread: thread,
      compression: compression
    ) { [weak self] record in
      self?.update { state in
        switch record {
        case .message(let message): state.webSocketMessages.append(message)
        case .close(let code): state.webSocketCloseCodes.append(code)
        }
      }
    }
    let script = webSocket.script
    Task {
      try? await script(socket)
      thread.finish()
    }
    thread.serve()
  }

  private func record(
    _ head: MockRequestReader.Head, body: MockRequestReader.Body, connection: Int, index: Int
  ) -> RecordedRequest {
    var request = RecordedRequest(
      method: head.method, target: head.target, version: head.version, headers: head.headers,
      body: body.data, isComplete: body.isComplete, connection: connection,
      indexOnConnection: index, sequenceNumber: 0)
    request.trailers = body.trailers
    update { state in
      request.sequenceNumber = state.requests.count
      state.requests.append(request)
      state.statistics.requestCount += 1
    }
    return request
  }
}

/// A test waiting for the server's state to reach a condition.
struct MockWaiter: Sendable {
  /// What a waiter's condition looks at.
  struct Snapshot {
    var statistics: MockServer.Statistics
    var requests: [RecordedRequest]
    /// How many requests ``MockServer/takeRequest(timeout:)`` has handed out.
    var taken: Int
    /// Whether no thread of the server runs any more: no connection, no accept loop.
    var isQuiet: Bool
    /// How many WebSocket messages were recorded, and taken.
    var webSocketMessages: Int
    var takenWebSocketMessages: Int
    /// How many WebSocket close frames from clients were recorded.
    var webSocketCloses: Int
  }

  let continuation: CheckedContinuation<Void, any Error>
  let condition: @Sendable (borrowing Snapshot) -> Bool

  func isSatisfied(by snapshot: borrowing Snapshot) -> Bool {
    condition(snapshot)
  }
}
