#if os(Linux)
  import Dispatch
  import Foundation
  import Glibc

  /// A WebSocket's connection on libcurl: connected with `CURLOPT_CONNECT_ONLY` (so TLS, trust,
  /// pins, client certificates and proxies are the ones calls use), then driven with
  /// `curl_easy_send` and `curl_easy_recv`.
  ///
  /// An easy handle is not thread-safe, so every libcurl call holds `lock`. Arrivals are read on
  /// the thread of ``CurlSocketLoop``, woken by the socket, and handed to the session there (one
  /// wake-up per arrival); `send` writes on the caller's thread, and when the socket is full the
  /// loop's next signal that it takes writes becomes ``WebSocketChannelEvent/writable``. The
  /// loop watches edge-triggered, so reads go on until libcurl says `CURLE_AGAIN` (which TLS
  /// needs anyway: it may hold decrypted bytes the socket no longer signals), and every resume
  /// posts a read of its own.
  final class CurlWebSocketChannel: WebSocketChannel, CurlSocketLoopClient, @unchecked Sendable {
    private let library: CurlLibrary
    private let easy: CurlLibrary.Easy
    private let loop: CurlSocketLoop
    private let socket: Int32
    /// The socket's registration with `loop`.
    private let identifier: UInt64
    /// Guards the easy handle and everything below.
    private let lock = Lock()
    /// The upgrade's reader and writer, before receiving starts.
    private var reader: CheckedContinuation<Result<Data?, TransportFailure>, Never>?
    private var writer: (bytes: Data, continuation: CheckedContinuation<TransportFailure?, Never>)?
    private var handler: (@Sendable (WebSocketChannelEvent) -> Void)?
    private var isPaused = false
    private var hasEnded = false
    /// Whether a `send` found the socket full: the next writable signal goes to the handler.
    private var wantsWritable = false
    private var isClosed = false
    /// Whether the socket is unwatched and the connection closed.
    private var isReleased = false

    /// Most bytes handed over in one event: a fast server cannot keep the loop for itself.
    private static let largestDelivery = 256 << 10

    private init(library: CurlLibrary, easy: CurlLibrary.Easy, socket: Int32, loop: CurlSocketLoop)
    {
      self.library = library
      self.easy = easy
      self.socket = socket
      self.loop = loop
      identifier = loop.makeIdentifier()
    }

    deinit {
      if !isReleased { release() }
    }

    /// Stops watching the socket, then closes the connection (`curl_easy_cleanup` closes it):
    /// the server sees the TCP connection end. Holds `lock` (or the last reference).
    private func release() {
      isReleased = true
      loop.unwatch(socket, as: identifier)
      library.easyCleanup(easy)
    }

    /// Connects `easy`, prepared with the transport's TLS and proxy options, to `url` on a thread
    /// of its own (`curl_easy_perform` blocks until the connection, TLS included, is up).
    static func connect(
      _ easy: CurlLibrary.Easy, to url: URL, timeout: TimeInterval, library: CurlLibrary
    ) async throws(TransportFailure) -> CurlWebSocketChannel {
      // The progress callback is how a connect in progress is stopped: libcurl calls it while
      // it connects, and a non-zero answer aborts `curl_easy_perform`.
      let abort = ConnectAbort()
      _ = library.easySetLong(easy, CurlConstant.noProgress, 0)
      _ = library.easySetPointer(
        easy, CurlConstant.xferInfoData, Unmanaged.passUnretained(abort).toOpaque())
      _ = library.easySetProgressCallback(easy, CurlConstant.xferInfoFunction, curlConnectProgress)
      _ = library.easySetLong(easy, CurlConstant.connectOnly, 1)
      // Through an HTTP proxy a plain `ws` connection must be a tunnel too: the upgrade request
      // is written in origin form, which a forwarding proxy would not take.
      _ = library.easySetLong(easy, CurlConstant.httpProxyTunnel, 1)
      _ = library.easySetLong(easy, CurlConstant.httpVersion, CurlConstant.httpVersion11)
      _ = library.easySetLong(
        easy, CurlConstant.connectTimeoutMilliseconds, Int(max(timeout, 0.001) * 1_000))
      _ = url.absoluteString.withCString { library.easySetPointer(easy, CurlConstant.url, $0) }
      let errorBuffer = UnsafeMutablePointer<CChar>.allocate(
        capacity: CurlConstant.errorBufferSize)
      errorBuffer.initialize(to: 0)
      defer { errorBuffer.deallocate() }
      _ = library.easySetPointer(easy, CurlConstant.errorBuffer, errorBuffer)
      let sendableEasy = SendablePointer(easy)
      let code = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          DispatchQueue.global().async {
            continuation.resume(returning: library.easyPerform(sendableEasy.pointer))
          }
        }
      } onCancel: {
        abort.isRequested.withLock { $0 = true }
      }
      _ = library.easySetPointer(easy, CurlConstant.errorBuffer, nil)
      _ = library.easySetLong(easy, CurlConstant.noProgress, 1)
      withExtendedLifetime(abort) {}
      if abort.isRequested.current {
        library.easyCleanup(easy)
        throw TransportFailure(kind: .cancelled, detail: "cancelled while connecting")
      }
      guard code == 0 else {
        let message = String(cString: errorBuffer)
        library.easyCleanup(easy)
        throw TransportFailure(curlCode: code, text: library.describe(code), message: message)
      }
      var socket: Int32 = -1
      _ = withUnsafeMutableBytes(of: &socket) {
        library.easyGetInfo(easy, CurlConstant.infoActiveSocket, $0.baseAddress!)
      }
      guard socket >= 0 else {
        library.easyCleanup(easy)
        throw TransportFailure(kind: .other, detail: "libcurl reported no socket for the WebSocket")
      }
      let loop: CurlSocketLoop
      do {
        loop = try CurlSocketLoop.running()
      } catch {
        library.easyCleanup(easy)
        throw error
      }
      // On failure the channel's `deinit` cleans the handle up.
      let channel = CurlWebSocketChannel(library: library, easy: easy, socket: socket, loop: loop)
      try loop.watch(socket, as: channel.identifier, for: channel)
      return channel
    }

    var taskExecutor: (any TaskExecutor)? { loop }

    func write(_ bytes: Data) async throws(TransportFailure) {
      let failure = await withCheckedContinuation {
        (continuation: CheckedContinuation<TransportFailure?, Never>) in
        let closed = self.lock.withLock {
          guard !self.isClosed else { return true }
          self.writer = (bytes, continuation)
          return false
        }
        if closed { return continuation.resume(returning: Self.closed) }
        self.loop.post { self.writable() }
      }
      if let failure { throw failure }
    }

    func read() async throws(TransportFailure) -> Data? {
      let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Data?, TransportFailure>, Never>) in
        let closed = self.lock.withLock {
          guard !self.isClosed else { return true }
          self.reader = continuation
          return false
        }
        if closed { return continuation.resume(returning: .failure(Self.closed)) }
        self.loop.post { self.readable() }
      }
      return try result.get()
    }

    func startReceiving(_ handler: @escaping @Sendable (WebSocketChannelEvent) -> Void) {
      lock.withLock { self.handler = handler }
      // Bytes may have come (and signalled) before there was anyone to take them, and TLS may
      // already hold bytes that came with the upgrade's answer.
      loop.post { self.readable() }
    }

    func setReceivingPaused(_ paused: Bool) {
      lock.withLock { isPaused = paused }
      // The signals that came while paused were skipped, and will not come again.
      if !paused { loop.post { self.readable() } }
    }

    func send(_ bytes: Data) throws(TransportFailure) -> Int {
      let outcome = lock.withLock { () -> Result<Int, TransportFailure> in
        guard !isClosed else { return .failure(Self.closed) }
        var offset = 0
        while offset < bytes.count {
          var sent = 0
          let code = bytes.withUnsafeBytes {
            library.easySend(easy, $0.baseAddress! + offset, $0.count - offset, &sent)
          }
          if code == CurlConstant.again {
            // Set under the lock that covers the refused write: the loop's signal that room came
            // after it looks at this only once the lock is free.
            wantsWritable = true
            break
          }
          guard code == 0 else {
            return .failure(
              TransportFailure(curlCode: code, text: library.describe(code), message: ""))
          }
          offset += sent
        }
        return .success(offset)
      }
      return try outcome.get()
    }

    func close() {
      let (reader, writer) = lock.withLock {
        () -> (
          CheckedContinuation<Result<Data?, TransportFailure>, Never>?,
          CheckedContinuation<TransportFailure?, Never>?
        ) in
        guard !isClosed else { return (nil, nil) }
        isClosed = true
        handler = nil
        // The loop holds the lock while it uses the handle, so the handle is free here; a
        // signal the loop took before finds the channel closed.
        if !isReleased { release() }
        defer { (self.reader, self.writer) = (nil, nil) }
        return (self.reader, self.writer?.continuation)
      }
      reader?.resume(returning: .failure(Self.closed))
      writer?.resume(returning: Self.closed)
    }

    func socketSignalled(readable: Bool, writable: Bool) {
      if readable { self.readable() }
      if writable { self.writable() }
    }

    private static let closed = TransportFailure(
      kind: .cancelled, detail: "the WebSocket was closed")

    /// On the loop's thread: the socket has bytes (or libcurl may). Before receiving starts they go to the
    /// upgrade's reader; after, to the handler, up to ``largestDelivery`` at a time.
    private func readable() {
      var delivered = Data()
      var ending: WebSocketChannelEvent?
      var more = false
      let (receiver, upgradeReader) = lock.withLock {
        () -> (
          (@Sendable (WebSocketChannelEvent) -> Void)?,
          CheckedContinuation<Result<Data?, TransportFailure>, Never>?
        ) in
        guard !isReleased, !isClosed else { return (nil, nil) }
        if self.handler == nil {
          // Nobody to take them yet: `read` and `startReceiving` post a read of their own.
          guard let reader = self.reader else { return (nil, nil) }
          switch receive(into: &delivered) {
          case .again:
            return (nil, nil)
          case .failed(let failure):
            ending = .failed(failure)
          case .ended, .received:
            break
          }
          self.reader = nil
          return (nil, reader)
        }
        // Paused: `setReceivingPaused(false)` posts a read.
        guard !isPaused, !hasEnded else { return (nil, nil) }
        reading: while delivered.count < Self.largestDelivery {
          switch receive(into: &delivered) {
          case .again: break reading
          case .received: continue
          case .ended: ending = .ended
          case .failed(let failure): ending = .failed(failure)
          }
          hasEnded = true
          break
        }
        more = ending == nil && delivered.count >= Self.largestDelivery
        return (self.handler, nil)
      }
      if let upgradeReader {
        if case .failed(let failure)? = ending {
          return upgradeReader.resume(returning: .failure(failure))
        }
        return upgradeReader.resume(returning: .success(delivered.isEmpty ? nil : delivered))
      }
      guard let receiver else { return }
      if !delivered.isEmpty { receiver(.received(delivered)) }
      // The handler may have closed the channel: then nothing follows.
      if let ending, !lock.withLock({ isClosed }) { receiver(ending) }
      // The socket will not signal what is left: read on after the other sockets' turn.
      if more { loop.post { self.readable() } }
    }

    /// One `curl_easy_recv` into the loop's buffer, appended to `bytes`: only what arrived is
    /// allocated (and nothing is zeroed first). Holds `lock`, on the loop's thread.
    private func receive(into bytes: inout Data) -> Receipt {
      var received = 0
      let buffer = loop.readBuffer
      let code = library.easyRecv(easy, buffer.baseAddress!, buffer.count, &received)
      if code == 0, received > 0 {
        bytes.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: received)
      }
      if code == CurlConstant.again { return .again }
      guard code == 0 else {
        return .failed(TransportFailure(curlCode: code, text: library.describe(code), message: ""))
      }
      return received == 0 ? .ended : .received
    }

    private enum Receipt {
      case again
      case received
      case ended
      case failed(TransportFailure)
    }

    /// On the loop's thread: the socket takes writes again (or may: edge-triggered signals come
    /// with others): the upgrade's writer goes on, or the handler hears of it if a `send` wants
    /// to know.
    private func writable() {
      let (receiver, finished) = lock.withLock {
        () -> (
          (@Sendable (WebSocketChannelEvent) -> Void)?,
          (CheckedContinuation<TransportFailure?, Never>, TransportFailure?)?
        ) in
        guard !isReleased, !isClosed else { return (nil, nil) }
        guard let current = self.writer else {
          guard wantsWritable else { return (nil, nil) }
          wantsWritable = false
          return (self.handler, nil)
        }
        var remaining = current.bytes
        while !remaining.isEmpty {
          var sent = 0
          let code = remaining.withUnsafeBytes {
            library.easySend(easy, $0.baseAddress, $0.count, &sent)
          }
          if code == CurlConstant.again {
            // The loop signals once the socket takes more.
            writer = (remaining, current.continuation)
            return (nil, nil)
          }
          guard code == 0 else {
            writer = nil
            return (
              nil,
              (
                current.continuation,
                TransportFailure(curlCode: code, text: library.describe(code), message: "")
              )
            )
          }
          remaining = remaining.dropFirst(sent)
        }
        writer = nil
        return (nil, (current.continuation, nil))
      }
      if let (continuation, failure) = finished { return continuation.resume(returning: failure) }
      receiver?(.writable)
    }
  }

  /// Asks a connect in progress to stop; read by the progress callback on the connecting thread.
  private final class ConnectAbort: Sendable {
    let isRequested = Locked(false)
  }

  private let curlConnectProgress: CurlLibrary.ProgressCallback = { userdata, _, _, _, _ in
    guard let userdata else { return 0 }
    let abort = Unmanaged<ConnectAbort>.fromOpaque(userdata).takeUnretainedValue()
    return abort.isRequested.current ? 1 : 0
  }

  /// An easy handle handed to the thread that connects it; only that thread uses it meanwhile.
  private struct SendablePointer: @unchecked Sendable {
    let pointer: CurlLibrary.Easy
    init(_ pointer: CurlLibrary.Easy) { self.pointer = pointer }
  }
#endif
