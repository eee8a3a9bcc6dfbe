#if os(Linux)
  import FoundationNetworking
  import Foundation
  import Glibc

  /// One exchange on a libcurl easy handle: configured on the caller's thread, then handed to the
  /// ``CurlMultiThread``, which alone touches it (and the buffers below) until it is done.
  ///
  /// libcurl's callbacks receive this object unretained; the event loop keeps it alive for as long
  /// as its easy handle is in the multi handle.
  final class CurlTransfer: TransferHandle, @unchecked Sendable {
    typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void

    let easy: CurlLibrary.Easy
    private let library: CurlLibrary
    private let url: URL
    private let startDate = Date()
    private weak var loop: CurlMultiThread?

    // Owned by the event loop thread once submitted.
    private var head = CurlResponseHead()
    private var body = Data()
    private var bytesSent = 0
    private var fileReadFailed = false

    // Kept for libcurl, which reads them during the transfer without copying.
    private var headerList: CurlLibrary.SList?
    private var bodyBytes: UnsafeMutableRawBufferPointer?
    private var bodyFile: Int32 = -1
    private var isTornDown = false

    private let lock = NSLock()
    private var completion: Completion?

    /// Creates and configures the easy handle; fails without touching the network when the
    /// request cannot be sent (a URL libcurl rejects, an unreadable body file).
    init(
      request: TransportRequest, library: CurlLibrary, loop: CurlMultiThread,
      defaultUserAgent: String, completion: @escaping Completion
    ) throws(TransportFailure) {
      guard let url = request.urlRequest.url else {
        throw TransportFailure(kind: .unsupportedURL, detail: "the request has no URL")
      }
      guard let easy = library.easyInit() else {
        throw TransportFailure(kind: .other, detail: "curl_easy_init failed")
      }
      self.easy = easy
      self.library = library
      self.url = url
      self.loop = loop
      self.completion = completion
      try configure(request, defaultUserAgent: defaultUserAgent)
    }

    deinit {
      tearDown()
    }

    /// Completes with ``TransportFailure/Kind/cancelled`` at once (not from inside `cancel()`, so a
    /// caller holding a lock cannot deadlock); the event loop detaches the easy handle on its next
    /// turn.
    func cancel() {
      guard let completion = takeCompletion() else { return }
      DispatchQueue.global().async {
        completion(.failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
      }
      loop?.cancel(self)
    }

    /// Whether the transfer was already completed (by a cancellation) before it started.
    var isCompleted: Bool { lock.withLock { completion == nil } }

    /// Called by the event loop once libcurl reports the transfer done and the handle is detached.
    func finish(code: Int32) {
      let result = makeResult(code: code)
      tearDown()
      takeCompletion()?(result)
    }

    /// Called by the event loop when it stops with the transfer still running.
    func abandon(reason: String) {
      tearDown()
      takeCompletion()?(.failure(TransportFailure(kind: .cancelled, detail: reason)))
    }

    private func takeCompletion() -> Completion? {
      lock.withLock {
        defer { completion = nil }
        return completion
      }
    }

    private func makeResult(code: Int32) -> Result<TransportResponse, TransportFailure> {
      if fileReadFailed {
        return .failure(
          TransportFailure(kind: .fileUnreadable, detail: "the body file could not be read"))
      }
      guard code == 0 else {
        return .failure(TransportFailure(curlCode: code, text: library.describe(code)))
      }
      guard head.statusCode > 0 else {
        return .failure(TransportFailure(kind: .badServerResponse, detail: "no HTTP status line"))
      }
      // No HTTPURLResponse here: FoundationNetworking's initializer is the largest user-space
      // cost of a small call, so it is built only if someone asks for one.
      let response = HTTPResponse(
        statusCode: head.statusCode, url: url, headers: head.headers,
        httpVersion: head.httpVersion)
      let metrics = TransferMetrics(
        startDate: startDate, duration: Date().timeIntervalSince(startDate),
        bytesReceived: body.count, bytesSent: bytesSent)
      return .success(TransportResponse(head: response, data: body, metrics: metrics))
    }

    /// Frees what libcurl no longer needs; runs on the loop thread after detaching, or in `deinit`.
    private func tearDown() {
      guard !isTornDown else { return }
      isTornDown = true
      library.easyCleanup(easy)
      library.slistFreeAll(headerList)
      headerList = nil
      bodyBytes?.deallocate()
      bodyBytes = nil
      if bodyFile >= 0 { close(bodyFile) }
      bodyFile = -1
    }

    // MARK: - Configuration

    private func configure(_ request: TransportRequest, defaultUserAgent: String)
      throws(TransportFailure)
    {
      let this = Unmanaged.passUnretained(self).toOpaque()
      setLong(CurlConstant.noSignal, 1)
      setLong(CurlConstant.followLocation, 0)
      setLong(CurlConstant.sslVerifyPeer, 1)
      setLong(CurlConstant.sslVerifyHost, 2)
      setLong(CurlConstant.httpVersion, CurlConstant.httpVersion2OverTLS)
      // Waiting for a connection to learn whether it multiplexes pays off only where HTTP/2 can
      // be negotiated; on plain HTTP it queued every transfer behind the first connection.
      if url.scheme?.lowercased() == "https" { setLong(CurlConstant.pipeWait, 1) }
      setLong(CurlConstant.suppressConnectHeaders, 1)
      // An empty list asks for every encoding this libcurl can decode, and decodes it.
      setString(CurlConstant.acceptEncoding, "")
      configureIdleTimeout(request.idleTimeout)
      guard setString(CurlConstant.url, url.absoluteString) == 0 else {
        throw TransportFailure(kind: .unsupportedURL, detail: "libcurl rejected the URL")
      }
      setPointer(CurlConstant.writeData, UnsafeRawPointer(this))
      setCallback(CurlConstant.writeFunction, curlWriteBody)
      setPointer(CurlConstant.headerData, UnsafeRawPointer(this))
      setCallback(CurlConstant.headerFunction, curlWriteHeader)
      let method = request.urlRequest.httpMethod?.uppercased() ?? "GET"
      try configureBody(request, method: method)
      configureHeaders(request.urlRequest, defaultUserAgent: defaultUserAgent)
    }

    /// libcurl has no "idle" timeout as such: the connect timeout bounds the handshake, and the
    /// low-speed rule (under 1 byte/s for the whole window) fails a transfer that stalls. The
    /// window has whole-second granularity.
    private func configureIdleTimeout(_ idleTimeout: TimeInterval) {
      let seconds = min(max(idleTimeout, 0.001), 86_400 * 365)
      setLong(CurlConstant.connectTimeoutMilliseconds, Int(seconds * 1_000))
      setLong(CurlConstant.lowSpeedLimit, 1)
      setLong(CurlConstant.lowSpeedTime, Int(seconds.rounded(.up)))
    }

    private func configureBody(_ request: TransportRequest, method: String) throws(TransportFailure)
    {
      if let fileURL = request.bodyFileURL {
        let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
          if descriptor >= 0 { close(descriptor) }
          throw TransportFailure(kind: .fileUnreadable, detail: "cannot open the body file")
        }
        bodyFile = descriptor
        bytesSent = Int(status.st_size)
        setLong(CurlConstant.post, 1)
        setLong(CurlConstant.postFieldSizeLarge, bytesSent)
        setPointer(
          CurlConstant.readData, UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
        setCallback(CurlConstant.readFunction, curlReadBody)
      } else if let data = request.urlRequest.httpBody ?? (method == "POST" ? Data() : nil) {
        // At least one byte, so that an empty POST still hands libcurl a valid pointer.
        let buffer = UnsafeMutableRawBufferPointer.allocate(
          byteCount: max(data.count, 1), alignment: 1)
        _ = data.copyBytes(to: buffer.bindMemory(to: UInt8.self))
        bodyBytes = buffer
        bytesSent = data.count
        setLong(CurlConstant.post, 1)
        setLong(CurlConstant.postFieldSizeLarge, data.count)
        setPointer(CurlConstant.postFields, buffer.baseAddress)
      } else if method == "HEAD" {
        setLong(CurlConstant.noBody, 1)
        return
      } else if method == "GET" {
        return
      }
      if method != "POST" { setString(CurlConstant.customRequest, method) }
    }

    private func configureHeaders(_ request: URLRequest, defaultUserAgent: String) {
      var list: CurlLibrary.SList?
      var hasUserAgent = false
      var hasExpect = false
      for (name, value) in request.allHTTPHeaderFields ?? [:] {
        // A line break inside a field would let a value smuggle in headers of its own.
        guard !Self.hasLineBreak(name), !Self.hasLineBreak(value) else { continue }
        switch name.lowercased() {
        // libcurl writes the length of the body it sends; a second one would break framing.
        case "content-length": continue
        case "user-agent": hasUserAgent = true
        case "expect": hasExpect = true
        default: break
        }
        // "Name;" is libcurl's spelling for a header sent with an empty value.
        list = library.slistAppend(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
      }
      // FoundationNetworking sends the same form, so servers see no difference between transports.
      if !hasUserAgent { list = library.slistAppend(list, "User-Agent: \(defaultUserAgent)") }
      // libcurl would otherwise wait for `100 Continue` before sending a large body.
      if !hasExpect { list = library.slistAppend(list, "Expect:") }
      headerList = list
      setPointer(CurlConstant.httpHeader, UnsafeRawPointer(list))
    }

    private static func hasLineBreak(_ text: String) -> Bool {
      text.utf8.contains { $0 == 10 || $0 == 13 }
    }

    @discardableResult
    private func setLong(_ option: Int32, _ value: Int) -> Int32 {
      library.easySetLong(easy, option, value)
    }

    /// libcurl copies string options, so the temporary C string may go away afterwards.
    @discardableResult
    private func setString(_ option: Int32, _ value: String) -> Int32 {
      value.withCString { library.easySetPointer(easy, option, $0) }
    }

    private func setPointer(_ option: Int32, _ value: UnsafeRawPointer?) {
      _ = library.easySetPointer(easy, option, value)
    }

    private func setCallback(_ option: Int32, _ callback: CurlLibrary.DataCallback) {
      _ = library.easySetCallback(easy, option, callback)
    }

    // MARK: - Callbacks (event loop thread)

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) {
      // One allocation for the whole body rather than one per doubling (and a copy each time).
      // A compressed body announces its compressed length, which is only a smaller start; the
      // cap keeps a lying header from reserving memory the body never fills.
      if body.isEmpty, let announced = head.announcedBodyLength, announced > bytes.count {
        body.reserveCapacity(min(announced, 16 << 20))
      }
      body.append(contentsOf: bytes)
    }

    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
      head.add(line: bytes.bindMemory(to: UInt8.self))
    }

    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
      let count = read(bodyFile, buffer.baseAddress, buffer.count)
      guard count >= 0 else {
        fileReadFailed = true
        return CurlConstant.readAbort
      }
      return count
    }
  }

  private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
  }

  private let curlWriteBody: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
    return size * count
  }

  private let curlWriteHeader: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    transfer(userdata).receiveHeader(UnsafeRawBufferPointer(start: pointer, count: size * count))
    return size * count
  }

  private let curlReadBody: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    transfer(userdata).readBody(
      into: UnsafeMutableRawBufferPointer(start: pointer, count: size * count))
  }
#endif
