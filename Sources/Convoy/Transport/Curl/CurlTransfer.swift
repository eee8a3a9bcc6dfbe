#if os(Linux)
  import FoundationNetworking
  import Foundation
  import Glibc

  /// One exchange on a libcurl easy handle: configured on the caller's thread, then handed to the
  /// ``CurlMultiThread``, which alone touches it (and the buffers below) until it is done.
  ///
  /// The answer is either buffered whole for a completion, or streamed to a ``TransferReceiver``
  /// as it arrives, pausing libcurl while the receiver asks it to.
  ///
  /// libcurl's callbacks receive this object unretained; the event loop keeps it alive for as long
  /// as its easy handle is in the multi handle.
  final class CurlTransfer: StreamingTransferHandle, @unchecked Sendable {
    typealias Completion = @Sendable (Result<TransportResponse, TransportFailure>) -> Void

    /// Who gets the answer.
    enum Consumer {
      case buffered(Completion)
      case streamed(any TransferReceiver)
    }

    let easy: CurlLibrary.Easy
    private let library: CurlLibrary
    private let handles: EasyHandlePool
    private let headerLists: CurlHeaderListMemo
    /// The pooled handle, with the buffer where libcurl writes the sentence for a failure (which
    /// says more than its code).
    private let handle: EasyHandlePool.Handle
    /// Whether the transfer set options beyond those every transfer sets again: its handle is
    /// then reset before reuse.
    private var setsOptionsOfItsOwn = true
    /// Whether libcurl ran the transfer to its end with an answer. A handle whose transfer
    /// failed, was paused or was stopped midway is reset before reuse too.
    private var ranToItsEnd = false
    private let url: URL
    /// Whether the transfer may share a connection with others as an HTTP/2 stream: HTTPS is
    /// where libcurl negotiates HTTP/2.
    let mayMultiplex: Bool
    private let startDate = Date()
    private weak var loop: CurlMultiThread?
    /// The streaming receiver, read on the loop thread; `nil` when buffering.
    private let receiver: (any TransferReceiver)?

    // Owned by the event loop thread once submitted.
    private var head: CurlResponseHead
    private var body = CurlBodyBuffer()
    private let limits: ResponseLimits
    /// The limit the answer passed; the transfer was stopped there.
    private var exceededLimit: TransportFailure?
    private var bytesSent = 0
    /// Whether the request has a body whose sending is reported to a streaming receiver.
    private var reportsUpload = false
    private var bytesReceived = 0
    /// How many times libcurl handed this transfer bytes of its answer, head or body: the loop
    /// compares totals around `curl_multi_perform` to learn whether it delivered anything.
    private(set) var deliveries = 0
    private var fileReadFailed = false
    /// A streamed body's feed; the read callback takes from it.
    private var pump: CurlBodyPump?
    /// The read callback paused sending until the pump has more (loop thread).
    private var isSendPaused = false
    /// Why the request trailers could not be sent, once they could not.
    private var trailerProblem: String?
    private var isHeadDelivered = false
    /// The receiver asked for a pause; the next bytes libcurl offers are refused (and kept by
    /// libcurl) until the receiver resumes.
    private var isReceivePaused = false
    private var lastReportedUpload: Int64 = -1
    /// The idle timeout, and when bytes last moved, in `DispatchTime` nanoseconds.
    private var idleLimit: UInt64 = 0
    private var lastActivity: UInt64 = 0
    private var lastProgress: (received: Int64, sent: Int64) = (0, 0)
    /// Head lines arrived since the last progress callback, which libcurl's counts leave out.
    /// The callback that follows in the same pass reads the clock once for all of them.
    private var headMovedSinceProgress = false
    private var isIdleTimedOut = false
    /// Why the final head was refused (``CurlResponseHead/framingProblem``), once it was.
    private var malformedHead: String?

    // Kept for libcurl, which reads them during the transfer without copying.
    private var headerList: CurlHeaderList?
    private var bodyBytes: UnsafeMutableRawBufferPointer?
    private var bodyFile: Int32 = -1
    private var isTornDown = false

    private let lock = Lock()
    private var consumer: Consumer?

    /// Creates and configures the easy handle; fails without touching the network when the
    /// request cannot be sent (a URL libcurl rejects, an unreadable body file).
    init(
      request: TransportRequest, library: CurlLibrary, handles: EasyHandlePool,
      headerLists: CurlHeaderListMemo, loop: CurlMultiThread, defaultUserAgent: String,
      consumer: Consumer
    ) throws(TransportFailure) {
      guard let url = request.urlRequest.url else {
        throw TransportFailure(kind: .unsupportedURL, detail: "the request has no URL")
      }
      guard let handle = handles.take() else {
        throw TransportFailure(kind: .other, detail: "curl_easy_init failed")
      }
      self.handle = handle
      self.easy = handle.easy
      self.library = library
      self.handles = handles
      self.headerLists = headerLists
      self.url = url
      self.mayMultiplex = url.scheme?.lowercased() == "https"
      self.loop = loop
      self.consumer = consumer
      self.limits = request.responseLimits
      self.head = CurlResponseHead(limits: request.responseLimits)
      if case .streamed(let receiver) = consumer {
        self.receiver = receiver
      } else {
        self.receiver = nil
      }
      try configure(request, defaultUserAgent: defaultUserAgent)
    }

    deinit {
      tearDown()
    }

    /// Completes with ``TransportFailure/Kind/cancelled`` at once (not from inside `cancel()`, so a
    /// caller holding a lock cannot deadlock); the event loop detaches the easy handle on its next
    /// turn.
    func cancel() {
      guard let consumer = takeConsumer() else { return }
      DispatchQueue.global().async {
        Self.complete(
          consumer,
          with: .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
      }
      loop?.cancel(self)
    }

    func resumeReceiving() {
      loop?.resume(self)
    }

    /// Whether the transfer was already completed (by a cancellation) before it started.
    var isCompleted: Bool { lock.withLock { consumer == nil } }

    /// Called by the event loop once libcurl reports the transfer done and the handle is detached.
    func finish(code: Int32) {
      let result = makeResult(code: code)
      if case .success = result { ranToItsEnd = !isReceivePaused }
      if let receiver, case .success(let response) = result {
        deliverHead(response.head)
        if !response.trailers.isEmpty, !isCompleted {
          receiver.transferDidReceiveTrailers(response.trailers)
        }
      }
      tearDown()
      guard let consumer = takeConsumer() else { return }
      Self.complete(consumer, with: result)
    }

    /// Called by the event loop when it stops with the transfer still running.
    func abandon(reason: String) {
      tearDown()
      guard let consumer = takeConsumer() else { return }
      Self.complete(consumer, with: .failure(TransportFailure(kind: .cancelled, detail: reason)))
    }

    /// Called by the event loop for a receiver that asked to go on after a pause.
    func continueReceiving() {
      guard isReceivePaused else { return }
      isReceivePaused = false
      // libcurl may deliver the bytes it kept from inside this call, on this (the loop) thread.
      _ = library.easyPause(easy, pauseMask)
    }

    /// Called by the event loop once a streamed body has more for a transfer that paused
    /// sending.
    func continueSending() {
      guard isSendPaused else { return }
      isSendPaused = false
      _ = library.easyPause(easy, pauseMask)
    }

    /// The directions that stay paused: `curl_easy_pause` sets both at once.
    private var pauseMask: Int32 {
      (isReceivePaused ? CurlConstant.pauseReceive : 0)
        | (isSendPaused ? CurlConstant.pauseSend : 0)
    }

    private func takeConsumer() -> Consumer? {
      lock.withLock {
        defer { consumer = nil }
        return consumer
      }
    }

    private static func complete(
      _ consumer: Consumer, with result: Result<TransportResponse, TransportFailure>
    ) {
      switch consumer {
      case .buffered(let completion):
        completion(result)
      case .streamed(let receiver):
        receiver.transferDidComplete(result.map(\.metrics))
      }
    }

    private func makeResult(code: Int32) -> Result<TransportResponse, TransportFailure> {
      if fileReadFailed {
        return .failure(
          TransportFailure(kind: .fileUnreadable, detail: "the body file could not be read"))
      }
      if code != 0, let failure = pump?.failure { return .failure(failure) }
      if code != 0, let trailerProblem {
        return .failure(TransportFailure(kind: .requestBodyFailed, detail: trailerProblem))
      }
      if let exceededLimit { return .failure(exceededLimit) }
      if let malformedHead {
        return .failure(TransportFailure(kind: .badServerResponse, detail: malformedHead))
      }
      if isIdleTimedOut {
        let seconds = Double(idleLimit) / 1_000_000_000
        return .failure(
          TransportFailure(kind: .timedOut, detail: "no byte moved for \(seconds) s (idle timeout)")
        )
      }
      guard code == 0 else {
        return .failure(
          TransportFailure(
            curlCode: code, text: library.describe(code),
            message: String(cString: handle.errorMessage)))
      }
      guard head.statusCode > 0 else {
        return .failure(TransportFailure(kind: .badServerResponse, detail: "no HTTP status line"))
      }
      // No HTTPURLResponse here: FoundationNetworking's initializer is the largest user-space
      // cost of a small call, so it is built only if someone asks for one.
      let response = HTTPResponse(
        statusCode: head.statusCode, url: url, headers: head.headers,
        httpVersion: head.httpVersion)
      var metrics = TransferMetrics(
        startDate: startDate, duration: Date().timeIntervalSince(startDate),
        bytesReceived: receiver == nil ? body.count : bytesReceived, bytesSent: bytesSent)
      CurlTransferInfo(library: library, easy: easy).fill(&metrics)
      var answer = TransportResponse(head: response, data: body.take(), metrics: metrics)
      answer.trailers = head.trailers
      return .success(answer)
    }

    /// Frees what libcurl no longer needs; runs on the loop thread after detaching, or in `deinit`.
    private func tearDown() {
      guard !isTornDown else { return }
      isTornDown = true
      // Every path here runs after the loop removed the handle from the multi handle, or before
      // it was ever added.
      // A handle kept as it is still points at the list; the next transfer sets its own first.
      if pump != nil {
        // libcurl 7.88 crashed in the next upload on a handle reset after one with a trailer
        // callback (a double free inside `curl_multi_perform`): such a handle is not kept.
        handles.discard(handle)
      } else {
        handles.recycle(handle, resetting: setsOptionsOfItsOwn || !ranToItsEnd)
      }
      headerList = nil
      bodyBytes?.deallocate()
      bodyBytes = nil
      body.discardPooled()
      if bodyFile >= 0 { close(bodyFile) }
      bodyFile = -1
      pump?.stop()
    }

    // MARK: - Configuration

    /// Sets the options every transfer of a transport shares, once for each new or reset handle
    /// (see ``EasyHandlePool``): what a transfer sets in ``configure(_:defaultUserAgent:)``
    /// must never be here, and the other way round.
    static func prepare(
      _ easy: CurlLibrary.Easy, library: CurlLibrary, tls: CurlTLSOptions?,
      proxy: ProxyConfiguration?
    ) {
      _ = library.easySetLong(easy, CurlConstant.noSignal, 1)
      _ = library.easySetLong(easy, CurlConstant.followLocation, 0)
      _ = library.easySetLong(easy, CurlConstant.sslVerifyPeer, 1)
      _ = library.easySetLong(easy, CurlConstant.sslVerifyHost, 2)
      _ = library.easySetLong(easy, CurlConstant.httpVersion, CurlConstant.httpVersion2OverTLS)
      _ = library.easySetLong(easy, CurlConstant.suppressConnectHeaders, 1)
      // An empty list asks for every encoding this libcurl can decode, and decodes it.
      _ = "".withCString { library.easySetPointer(easy, CurlConstant.acceptEncoding, $0) }
      _ = library.easySetCallback(easy, CurlConstant.writeFunction, curlWriteBody)
      _ = library.easySetCallback(easy, CurlConstant.headerFunction, curlWriteHeader)
      // The progress callback enforces the idle timeout, and reports upload progress to receivers.
      _ = library.easySetLong(easy, CurlConstant.noProgress, 0)
      _ = library.easySetProgressCallback(easy, CurlConstant.xferInfoFunction, curlProgress)
      tls?.apply(to: easy, library: library)
      proxy?.apply(to: easy, library: library)
    }

    /// Sets what is this transfer's own, on a prepared handle: every option here is set by every
    /// transfer (so a handle kept without a reset carries nothing of the last one), except those
    /// of a body or another method, after which the handle is reset.
    private func configure(_ request: TransportRequest, defaultUserAgent: String)
      throws(TransportFailure)
    {
      let this = Unmanaged.passUnretained(self).toOpaque()
      handle.errorMessage.pointee = 0
      // Waiting for a connection to learn whether it multiplexes pays off only where HTTP/2 can
      // be negotiated; on plain HTTP it queued every transfer behind the first connection.
      setLong(CurlConstant.pipeWait, mayMultiplex ? 1 : 0)
      configureIdleTimeout(request.idleTimeout)
      guard setString(CurlConstant.url, url.absoluteString) == 0 else {
        throw TransportFailure(kind: .unsupportedURL, detail: "libcurl rejected the URL")
      }
      setPointer(CurlConstant.writeData, UnsafeRawPointer(this))
      setPointer(CurlConstant.headerData, UnsafeRawPointer(this))
      setPointer(CurlConstant.xferInfoData, UnsafeRawPointer(this))
      let method = request.urlRequest.httpMethod?.uppercased() ?? "GET"
      // Left `true` when the body cannot be set up: the transfer never runs, and its handle is
      // reset.
      setsOptionsOfItsOwn = try configureBody(request, method: method)
      configureHeaders(
        request.urlRequest, defaultUserAgent: defaultUserAgent,
        asksToContinue: pump.map { $0.length.map { $0 > Self.continueThreshold } ?? true } ?? false)
    }

    /// libcurl has no "idle" timeout as such. The connect timeout bounds the handshake; after it,
    /// the progress callback (called at least once a second) fails a transfer that has moved no
    /// byte for the whole timeout. libcurl's low-speed rule is no substitute: it averages over the
    /// last five seconds, so a body that stalls after its first bytes failed seconds late.
    private func configureIdleTimeout(_ idleTimeout: TimeInterval) {
      let seconds = min(max(idleTimeout, 0.001), 86_400 * 365)
      setLong(CurlConstant.connectTimeoutMilliseconds, Int(seconds * 1_000))
      idleLimit = UInt64(seconds * 1_000_000_000)
      lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// - Returns: Whether it set any option: a plain `GET` sets none.
    private func configureBody(_ request: TransportRequest, method: String) throws(TransportFailure)
      -> Bool
    {
      if let fileURL = request.bodyFileURL {
        let descriptor = open(fileURL.path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
          if descriptor >= 0 { close(descriptor) }
          throw TransportFailure(kind: .fileUnreadable, detail: "cannot open the body file")
        }
        bodyFile = descriptor
        // Counted as libcurl reads the file: a server that answers early stops the upload, and
        // the metrics must not claim the rest went out.
        reportsUpload = true
        setLong(CurlConstant.post, 1)
        setLong(CurlConstant.postFieldSizeLarge, Int(status.st_size))
        setLong(CurlConstant.uploadBufferSize, Self.uploadBufferSize)
        setPointer(
          CurlConstant.readData, UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
        setCallback(CurlConstant.readFunction, curlReadBody)
      } else if let body = request.bodyStream {
        configureStream(try body.open())
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
        return true
      } else if method == "GET" {
        return false
      }
      if method != "POST" { setString(CurlConstant.customRequest, method) }
      return true
    }

    /// A streamed body: its length as `Content-Length` when known; otherwise libcurl sends it
    /// chunked on HTTP/1.1 (asking `Expect: 100-continue` first) and to its end in `DATA` frames
    /// on HTTP/2, with the trailers the source set after it.
    private func configureStream(_ stream: RequestBodyStream) {
      let pump = CurlBodyPump(stream: stream) { [weak self] in
        guard let self else { return }
        loop?.resumeSending(self)
      }
      self.pump = pump
      reportsUpload = true
      setLong(CurlConstant.post, 1)
      if let length = stream.length { setLong(CurlConstant.postFieldSizeLarge, Int(length)) }
      setLong(CurlConstant.uploadBufferSize, Self.uploadBufferSize)
      let this = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
      setPointer(CurlConstant.readData, this)
      setCallback(CurlConstant.readFunction, curlReadBody)
      setPointer(CurlConstant.trailerData, this)
      _ = library.easySetTrailerCallback(easy, CurlConstant.trailerFunction, curlRequestTrailers)
      pump.start()
    }

    /// How much of a file or streamed body libcurl asks the read callback for at once (its
    /// default is 64 KiB): fewer callbacks, chunk headers and `send` calls per byte. libcurl
    /// allocates it for an upload only, and the handle is reset after one.
    private static let uploadBufferSize = 256 << 10

    /// The body size above which a streamed body asks the server first, as libcurl does for a
    /// body it holds.
    private static let continueThreshold: Int64 = 1 << 20

    /// The request's fields as a header list: the memo's, when a recent call sent the same.
    ///
    /// - Parameter asksToContinue: Whether to add `Expect: 100-continue` (unless the request has
    ///   an `Expect` of its own): a streamed body of unknown or large size then waits for the
    ///   server's `100 Continue`, or its refusal, before it is sent; libcurl sends it anyway
    ///   after a second without an answer. libcurl 7.88 asks so by itself only for a body whose
    ///   size it knows.
    private func configureHeaders(
      _ request: URLRequest, defaultUserAgent: String, asksToContinue: Bool
    ) {
      var fields = request.allHTTPHeaderFields ?? [:]
      if asksToContinue, request.value(forHTTPHeaderField: "Expect") == nil {
        fields["Expect"] = "100-continue"
      }
      let list = headerLists.list(for: fields) {
        CurlHeaderList(fields: fields, defaultUserAgent: defaultUserAgent, library: library)
      }
      headerList = list
      setPointer(CurlConstant.httpHeader, UnsafeRawPointer(list.pointer))
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

    /// - Returns: What the write callback answers libcurl: the count taken, or a pause.
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
      deliveries &+= 1
      if let receiver {
        guard !isReceivePaused else { return CurlConstant.writePause }
        deliverHead(currentHead())
        bytesReceived += bytes.count
        guard !isCompleted else { return bytes.count }
        if receiver.transferDidReceiveBody(Data(bytes)) == .pause { isReceivePaused = true }
        return bytes.count
      }
      // An endless body must not grow the process: answering libcurl with fewer bytes than it
      // offered stops the transfer (CURLE_WRITE_ERROR), reported as the limit.
      guard body.count + bytes.count <= limits.maximumBodySize else {
        exceededLimit = limits.failure("maximumBodySize", limits.maximumBodySize)
        return 0
      }
      bufferBody(bytes)
      return bytes.count
    }

    private func bufferBody(_ bytes: UnsafeRawBufferPointer) {
      if body.count == 0, let announced = head.announcedBodyLength, announced > bytes.count,
        announced <= limits.maximumBodySize
      {
        body.reserve(announced: announced)
      }
      body.append(bytes)
    }

    /// - Returns: Whether libcurl may go on; `false` stops the transfer once the head passed a
    ///   limit, or at a head whose framing is broken, before libcurl waits for a body length it
    ///   made up.
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
      deliveries &+= 1
      headMovedSinceProgress = true
      let headIsComplete = head.add(line: bytes.bindMemory(to: UInt8.self))
      if let passed = head.exceededLimit {
        exceededLimit = passed
        return false
      }
      if headIsComplete, let problem = head.framingProblem {
        malformedHead = problem
        return false
      }
      // A streaming receiver hears of the head as soon as it is whole, before any body byte:
      // an event stream may send its first event much later.
      if headIsComplete, receiver != nil { deliverHead(currentHead()) }
      return true
    }

    /// - Returns: Whether libcurl may go on; `false` once nothing moved for the idle timeout.
    fileprivate func progress(received: Int64, sent: Int64, sendTotal: Int64) -> Bool {
      let now = DispatchTime.now().uptimeNanoseconds
      if received != lastProgress.received || sent != lastProgress.sent || headMovedSinceProgress
        || isReceivePaused
      {
        // A receiver's pause stops the bytes on purpose: that is not the server falling silent.
        // A body's source with nothing ready is not exempt: a source that never produces again
        // would otherwise hold the transfer (and a stream, which has no deadline) forever.
        lastProgress = (received, sent)
        headMovedSinceProgress = false
        lastActivity = now
      } else if now &- lastActivity > idleLimit {
        isIdleTimedOut = true
        return false
      }
      if receiver != nil, bytesSent > 0 || reportsUpload {
        reportUpload(sent: sent, total: sendTotal)
      }
      return true
    }

    private func reportUpload(sent: Int64, total: Int64) {
      guard sent != lastReportedUpload, let receiver, !isCompleted else { return }
      lastReportedUpload = sent
      receiver.transferDidSendBody(
        TransferProgress(completedBytes: sent, totalBytes: total > 0 ? total : pump?.length))
    }

    private func currentHead() -> HTTPResponse {
      HTTPResponse(
        statusCode: head.statusCode, url: url, headers: head.headers,
        httpVersion: head.httpVersion)
    }

    private func deliverHead(_ response: HTTPResponse) {
      guard !isHeadDelivered, let receiver else { return }
      isHeadDelivered = true
      guard !isCompleted else { return }
      receiver.transferDidReceiveHead(response)
    }

    fileprivate func appendTrailers(to list: UnsafeMutablePointer<CurlLibrary.SList?>?) -> Bool {
      guard let pump, let list else { return true }
      for field in pump.trailers.fields {
        guard HTTPFieldSyntax.isValidName(field.name), HTTPFieldSyntax.isValidValue(field.value)
        else {
          trailerProblem = "the trailer field \"\(field.name)\" cannot be sent"
          return false
        }
        let line = "\(field.name): \(field.value)"
        guard let appended = line.withCString({ library.slistAppend(list.pointee, $0) }) else {
          return false
        }
        list.pointee = appended
      }
      return true
    }

    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
      if let pump {
        switch pump.read(into: buffer) {
        case .bytes(let count):
          bytesSent += count
          return count
        case .end:
          return 0
        case .pause:
          isSendPaused = true
          return CurlConstant.readPause
        case .abort:
          return CurlConstant.readAbort
        }
      }
      let count = read(bodyFile, buffer.baseAddress, buffer.count)
      guard count >= 0 else {
        fileReadFailed = true
        return CurlConstant.readAbort
      }
      bytesSent += count
      return count
    }
  }

  private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
  }

  private let curlWriteBody: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
  }

  private let curlProgress: CurlLibrary.ProgressCallback = { userdata, _, received, total, sent in
    // Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK), reported as the idle timeout.
    transfer(userdata).progress(received: received, sent: sent, sendTotal: total) ? 0 : 1
  }

  private let curlWriteHeader: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    let goesOn = transfer(userdata).receiveHeader(
      UnsafeRawBufferPointer(start: pointer, count: size * count))
    // Fewer bytes than offered stop the transfer (CURLE_WRITE_ERROR).
    return goesOn ? size * count : 0
  }

  /// Appends the streamed body's trailers to libcurl's list (which libcurl frees); a field no
  /// server could take aborts the transfer.
  private let curlRequestTrailers: CurlLibrary.TrailerCallback = { list, userdata in
    transfer(userdata).appendTrailers(to: list) ? 0 : 1
  }

  private let curlReadBody: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    transfer(userdata).readBody(
      into: UnsafeMutableRawBufferPointer(start: pointer, count: size * count))
  }
#endif
