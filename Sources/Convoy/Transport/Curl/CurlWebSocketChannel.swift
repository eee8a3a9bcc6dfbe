#if os(Linux)
  import Dispatch
  import Foundation
  import Glibc

  /// A WebSocket's connection on libcurl: connected with `CURLOPT_CONNECT_ONLY` (so TLS, trust,
  /// pins, client certificates and proxies are the ones calls use), then driven with
  /// `curl_easy_send` and `curl_easy_recv`.
  ///
  /// An easy handle is not thread-safe, so every libcurl call holds `lock`. Arrivals are read on
  /// a serial queue, woken by a dispatch source for the socket (epoll on Linux) that stays armed
  /// while the session receives, and handed to the session there; `send` writes on the caller's
  /// thread and arms a write source only when the socket is full. TLS may hold decrypted bytes
  /// the socket no longer signals, so reads go on until libcurl says `CURLE_AGAIN`.
  final class CurlWebSocketChannel: WebSocketChannel, @unchecked Sendable {
    private let library: CurlLibrary
    private let easy: CurlLibrary.Easy
    private let queue = DispatchQueue(label: "convoy.websocket.curl")
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    /// Guards the easy handle and everything below.
    private let lock = Lock()
    /// The upgrade's reader and writer, before receiving starts.
    private var reader: CheckedContinuation<Result<Data?, TransportFailure>, Never>?
    private var writer: (bytes: Data, continuation: CheckedContinuation<TransportFailure?, Never>)?
    private var handler: (@Sendable (WebSocketChannelEvent) -> Void)?
    private var isPaused = false
    private var hasEnded = false
    private var isReadSourceRunning = false
    private var isWriteSourceRunning = false
    private var isClosed = false

    /// Most bytes handed over in one event: a fast server cannot keep the queue for itself.
    private static let largestDelivery = 256 << 10
    /// The size of one `curl_easy_recv`.
    private static let readSize = 64 << 10

    private init(library: CurlLibrary, easy: CurlLibrary.Easy, socket: Int32) {
      self.library = library
      self.easy = easy
      readSource = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
      writeSource = DispatchSource.makeWriteSource(fileDescriptor: socket, queue: queue)
      readSource.setEventHandler { [unowned self] in self.readable() }
      writeSource.setEventHandler { [unowned self] in self.writable() }
    }

    deinit {
      if !isReleased { release() }
    }

    /// Whether the sources are cancelled and the connection closed; guarded by `lock` (or the
    /// last reference, in `deinit`).
    private var isReleased = false

    /// Stops watching the socket, then closes the connection (`curl_easy_cleanup` closes it):
    /// the server sees the TCP connection end. Holds `lock` (or the last reference).
    private func release() {
      isReleased = true
      readSource.cancel()
      writeSource.cancel()
      // A suspended source must be resumed to be cancelled, or Dispatch traps when it goes.
      if !isReadSourceRunning { readSource.resume() }
      if !isWriteSourceRunning { writeSource.resume() }
      isReadSourceRunning = true
      isWriteSourceRunning = true
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
      return CurlWebSocketChannel(library: library, easy: easy, socket: socket)
    }

    func write(_ bytes: Data) async throws(TransportFailure) {
      let failure = await withCheckedContinuation {
        (continuation: CheckedContinuation<TransportFailure?, Never>) in
        queue.async {
          let closed = self.lock.withLock {
            guard !self.isClosed else { return true }
            self.writer = (bytes, continuation)
            return false
          }
          if closed { return continuation.resume(returning: Self.closed) }
          self.writable()
        }
      }
      if let failure { throw failure }
    }

    func read() async throws(TransportFailure) -> Data? {
      let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Data?, TransportFailure>, Never>) in
        queue.async {
          let closed = self.lock.withLock {
            guard !self.isClosed else { return true }
            self.reader = continuation
            return false
          }
          if closed { return continuation.resume(returning: .failure(Self.closed)) }
          self.readable()
        }
      }
      return try result.get()
    }

    func startReceiving(_ handler: @escaping @Sendable (WebSocketChannelEvent) -> Void) {
      lock.withLock {
        self.handler = handler
        setRead(running: !isPaused)
      }
      // TLS may already hold bytes that came with the upgrade's answer.
      queue.async { self.readable() }
    }

    func setReceivingPaused(_ paused: Bool) {
      lock.withLock {
        isPaused = paused
        setRead(running: !paused && !hasEnded)
      }
      if !paused { queue.async { self.readable() } }
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
            setWrite(running: true)
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
        defer { (self.reader, self.writer) = (nil, nil) }
        return (self.reader, self.writer?.continuation)
      }
      reader?.resume(returning: .failure(Self.closed))
      writer?.resume(returning: Self.closed)
      // On the queue, so that no event handler is running when the sources go.
      queue.async { self.lock.withLock { if !self.isReleased { self.release() } } }
    }

    private static let closed = TransportFailure(
      kind: .cancelled, detail: "the WebSocket was closed")

    /// On `queue`: the socket has bytes (or libcurl may). Before receiving starts they go to the
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
          guard let reader = self.reader else {
            setRead(running: false)
            return (nil, nil)
          }
          switch receive(into: &delivered) {
          case .again:
            setRead(running: true)
            return (nil, nil)
          case .failed(let failure):
            ending = .failed(failure)
          case .ended, .received:
            break
          }
          self.reader = nil
          setRead(running: false)
          return (nil, reader)
        }
        guard !isPaused, !hasEnded else {
          setRead(running: false)
          return (nil, nil)
        }
        reading: while delivered.count < Self.largestDelivery {
          switch receive(into: &delivered) {
          case .again: break reading
          case .received: continue
          case .ended: ending = .ended
          case .failed(let failure): ending = .failed(failure)
          }
          hasEnded = true
          setRead(running: false)
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
      if let ending { receiver(ending) }
      if more { queue.async { self.readable() } }
    }

    /// One `curl_easy_recv`, appended to `bytes`. Holds `lock`.
    private func receive(into bytes: inout Data) -> Receipt {
      var received = 0
      let start = bytes.count
      bytes.count += Self.readSize
      let code = bytes.withUnsafeMutableBytes {
        library.easyRecv(easy, $0.baseAddress! + start, Self.readSize, &received)
      }
      bytes.count = start + (code == 0 ? received : 0)
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

    /// On `queue`: the socket takes writes again: the upgrade's writer goes on, or the handler
    /// hears of it.
    private func writable() {
      let (receiver, finished) = lock.withLock {
        () -> (
          (@Sendable (WebSocketChannelEvent) -> Void)?,
          (CheckedContinuation<TransportFailure?, Never>, TransportFailure?)?
        ) in
        guard !isReleased, !isClosed else { return (nil, nil) }
        guard let current = self.writer else {
          setWrite(running: false)
          return (self.handler, nil)
        }
        var remaining = current.bytes
        while !remaining.isEmpty {
          var sent = 0
          let code = remaining.withUnsafeBytes {
            library.easySend(easy, $0.baseAddress, $0.count, &sent)
          }
          if code == CurlConstant.again {
            writer = (remaining, current.continuation)
            setWrite(running: true)
            return (nil, nil)
          }
          guard code == 0 else {
            writer = nil
            setWrite(running: false)
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
        setWrite(running: false)
        return (nil, (current.continuation, nil))
      }
      if let (continuation, failure) = finished { return continuation.resume(returning: failure) }
      receiver?(.writable)
    }

    /// Holds `lock`.
    private func setRead(running: Bool) {
      guard !isReleased, running != isReadSourceRunning else { return }
      isReadSourceRunning = running
      running ? readSource.resume() : readSource.suspend()
    }

    /// Holds `lock`.
    private func setWrite(running: Bool) {
      guard !isReleased, running != isWriteSourceRunning else { return }
      isWriteSourceRunning = running
      running ? writeSource.resume() : writeSource.suspend()
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
