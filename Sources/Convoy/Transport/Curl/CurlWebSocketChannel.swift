#if os(Linux)
  import Dispatch
  import Foundation
  import Glibc

  /// A WebSocket's connection on libcurl: connected with `CURLOPT_CONNECT_ONLY` (so TLS, trust,
  /// pins, client certificates and proxies are the ones calls use), then driven with
  /// `curl_easy_send` and `curl_easy_recv`.
  ///
  /// An easy handle is not thread-safe, so every libcurl call runs on one serial queue; a read or
  /// write that would block waits on a dispatch source for the socket (epoll on Linux) instead
  /// of a thread. TLS may hold decrypted bytes the socket no longer signals, so a read always
  /// asks libcurl first and waits only when it says `CURLE_AGAIN`.
  final class CurlWebSocketChannel: WebSocketChannel, @unchecked Sendable {
    private let library: CurlLibrary
    private let easy: CurlLibrary.Easy
    private let queue = DispatchQueue(label: "convoy.websocket.curl")
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    // Guarded by `queue`.
    private var reader: CheckedContinuation<Result<Data?, TransportFailure>, Never>?
    private var writer: (bytes: Data, continuation: CheckedContinuation<TransportFailure?, Never>)?
    private var isReadSourceRunning = false
    private var isWriteSourceRunning = false
    private var isClosed = false
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    private init(library: CurlLibrary, easy: CurlLibrary.Easy, socket: Int32) {
      self.library = library
      self.easy = easy
      readSource = DispatchSource.makeReadSource(fileDescriptor: socket, queue: queue)
      writeSource = DispatchSource.makeWriteSource(fileDescriptor: socket, queue: queue)
      readSource.setEventHandler { [unowned self] in self.tryRead() }
      writeSource.setEventHandler { [unowned self] in self.tryWrite() }
    }

    deinit {
      if !isReleased { release() }
    }

    /// Whether the sources are cancelled and the connection closed; guarded by `queue` (or the
    /// last reference, in `deinit`).
    private var isReleased = false

    /// Stops watching the socket, then closes the connection (`curl_easy_cleanup` closes it):
    /// the server sees the TCP connection end.
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
          guard !self.isClosed else { return continuation.resume(returning: Self.closed) }
          self.writer = (bytes, continuation)
          self.tryWrite()
        }
      }
      if let failure { throw failure }
    }

    func read() async throws(TransportFailure) -> Data? {
      let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Data?, TransportFailure>, Never>) in
        queue.async {
          guard !self.isClosed else { return continuation.resume(returning: .failure(Self.closed)) }
          self.reader = continuation
          self.tryRead()
        }
      }
      return try result.get()
    }

    func close() {
      queue.async {
        guard !self.isClosed else { return }
        self.isClosed = true
        self.reader?.resume(returning: .failure(Self.closed))
        self.reader = nil
        self.writer?.continuation.resume(returning: Self.closed)
        self.writer = nil
        self.release()
      }
    }

    private static let closed = TransportFailure(
      kind: .cancelled, detail: "the WebSocket was closed")

    /// On `queue`: hands the waiting reader what libcurl has, or waits for the socket.
    private func tryRead() {
      guard !isReleased else { return }
      guard let reader else { return setRead(running: false) }
      var received = 0
      let code = buffer.withUnsafeMutableBytes {
        library.easyRecv(easy, $0.baseAddress, $0.count, &received)
      }
      if code == CurlConstant.again { return setRead(running: true) }
      self.reader = nil
      setRead(running: false)
      guard code == 0 else {
        return reader.resume(
          returning: .failure(
            TransportFailure(curlCode: code, text: library.describe(code), message: "")))
      }
      reader.resume(returning: .success(received == 0 ? nil : Data(buffer[0..<received])))
    }

    /// On `queue`: sends what the waiting writer has left, or waits for the socket.
    private func tryWrite() {
      guard !isReleased else { return }
      guard let current = writer else { return setWrite(running: false) }
      var remaining = current.bytes
      while !remaining.isEmpty {
        var sent = 0
        let code = remaining.withUnsafeBytes {
          library.easySend(easy, $0.baseAddress, $0.count, &sent)
        }
        if code == CurlConstant.again {
          writer = (remaining, current.continuation)
          return setWrite(running: true)
        }
        guard code == 0 else {
          writer = nil
          setWrite(running: false)
          return current.continuation.resume(
            returning: TransportFailure(curlCode: code, text: library.describe(code), message: ""))
        }
        remaining = remaining.dropFirst(sent)
      }
      writer = nil
      setWrite(running: false)
      current.continuation.resume(returning: nil)
    }

    private func setRead(running: Bool) {
      guard !isReleased, running != isReadSourceRunning else { return }
      isReadSourceRunning = running
      running ? readSource.resume() : readSource.suspend()
    }

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
