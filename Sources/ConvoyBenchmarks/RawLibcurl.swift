#if os(Linux)
  import Convoy
  import Foundation

  /// The ceiling: the system libcurl driven straight from one thread, the way a C program would
  /// (one multi handle, one reused easy handle per request in flight, no Swift objects per
  /// request, no thread hand-overs). Nothing built on the same libcurl can be faster, so it shows
  /// how much of a target the library itself can reach on this machine.
  ///
  /// Over HTTPS it trusts the run's authority through `CURLOPT_CAINFO` (the system's directory
  /// stays in use), asks for HTTP/2 and waits for a connection to say whether it multiplexes
  /// (`CURLOPT_PIPEWAIT`), as `CurlTransport` does, so 8 in flight share one connection.
  struct RawLibcurlLoop: Sendable {
    private let library: CurlLibrary
    private let authorityFile: String?

    /// - Parameter authorityFile: The PEM file of the authority to trust for HTTPS.
    init?(authorityFile: URL? = nil) {
      guard case .success(let library) = CurlLibrary.shared else { return nil }
      self.library = library
      self.authorityFile = authorityFile?.path
    }

    /// The options every handle of the loop gets.
    private func configure(_ easy: CurlLibrary.Easy, address: String) {
      address.withCString { _ = library.easySetPointer(easy, CurlConstant.url, $0) }
      _ = library.easySetLong(easy, CurlConstant.noSignal, 1)
      if let authorityFile {
        authorityFile.withCString { _ = library.easySetPointer(easy, CurlConstant.caInfo, $0) }
        _ = library.easySetLong(easy, CurlConstant.httpVersion, CurlConstant.httpVersion2OverTLS)
        _ = library.easySetLong(easy, CurlConstant.pipeWait, 1)
      }
    }

    /// Fetches `url` once on a handle of its own and reports the body and the version libcurl
    /// negotiated (`CURLINFO_HTTP_VERSION`).
    func probe(url: URL) -> ProtocolReport {
      guard let multi = library.multiInit(), let easy = library.easyInit() else {
        return ProtocolReport(failure: "libcurl handles could not be made")
      }
      defer {
        _ = library.multiCleanup(multi)
        library.easyCleanup(easy)
      }
      let body = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
      body.initialize(to: [])
      defer { body.deinitialize(count: 1).deallocate() }
      configure(easy, address: url.absoluteString)
      _ = library.easySetCallback(easy, CurlConstant.writeFunction, collectBytes)
      _ = library.easySetPointer(easy, CurlConstant.writeData, body)
      _ = library.easySetCallback(easy, CurlConstant.headerFunction, ignoreBytes)
      _ = library.multiAddHandle(multi, easy)
      var running: Int32 = 1
      var remaining: Int32 = 0
      var code: Int32 = -1
      let deadline = Date().addingTimeInterval(10)
      while running > 0, Date() < deadline {
        _ = library.multiPerform(multi, &running)
        while let message = library.multiInfoRead(multi, &remaining) {
          guard message.load(as: Int32.self) == CurlConstant.messageDone else { continue }
          code = message.load(fromByteOffset: 16, as: Int32.self)
        }
        if running > 0 { _ = library.multiPoll(multi, nil, 0, 100, nil) }
      }
      let version = negotiatedVersion(easy)
      _ = library.multiRemoveHandle(multi, easy)
      guard code == 0 else { return ProtocolReport(failure: library.describe(code)) }
      return ProtocolReport(
        clientSays: version, serverSays: String(decoding: body.pointee, as: UTF8.self))
    }

    /// `CURLINFO_HTTP_VERSION` (7.50), read through `curl_easy_getinfo`, which `CurlLibrary`
    /// does not load: Convoy reads the version from the status line instead.
    private func negotiatedVersion(_ easy: CurlLibrary.Easy) -> String? {
      typealias GetInfo = @convention(c) (CurlLibrary.Easy, Int32, UnsafeMutableRawPointer) -> Int32
      guard let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD),
        let symbol = dlsym(handle, "curl_easy_getinfo")
      else { return nil }
      defer { dlclose(handle) }
      let getInfo = unsafeBitCast(symbol, to: GetInfo.self)
      var version = 0
      let httpVersionInfo: Int32 = 0x20_0000 + 46
      guard getInfo(easy, httpVersionInfo, &version) == 0 else { return nil }
      switch version {
      case 1: return "HTTP/1.0"
      case 2: return "HTTP/1.1"
      case 3: return "HTTP/2"
      case 30: return "HTTP/3"
      default: return "unknown (\(version))"
      }
    }

    /// Fetches `url` with `inFlight` transfers at a time until `budget` is spent; returns when
    /// every transfer it started has finished.
    func run(url: URL, inFlight: Int, budget: RequestBudget) {
      guard let multi = library.multiInit() else { return }
      defer { _ = library.multiCleanup(multi) }
      let receivedBytes = UnsafeMutablePointer<Int>.allocate(capacity: inFlight)
      defer { receivedBytes.deallocate() }
      var handles: [CurlLibrary.Easy] = []
      defer { handles.forEach(library.easyCleanup) }
      let address = url.absoluteString
      for slot in 0..<inFlight {
        guard let easy = library.easyInit() else { return }
        handles.append(easy)
        configure(easy, address: address)
        _ = library.easySetCallback(easy, CurlConstant.writeFunction, countBytes)
        _ = library.easySetPointer(easy, CurlConstant.writeData, receivedBytes + slot)
        _ = library.easySetCallback(easy, CurlConstant.headerFunction, ignoreBytes)
        receivedBytes[slot] = 0
        if budget.claim() { _ = library.multiAddHandle(multi, easy) }
      }
      var running: Int32 = 1
      var remaining: Int32 = 0
      while running > 0 {
        _ = library.multiPerform(multi, &running)
        while let message = library.multiInfoRead(multi, &remaining) {
          guard message.load(as: Int32.self) == CurlConstant.messageDone else { continue }
          let easy = message.load(fromByteOffset: 8, as: CurlLibrary.Easy.self)
          let code = message.load(fromByteOffset: 16, as: Int32.self)
          _ = library.multiRemoveHandle(multi, easy)
          guard let slot = handles.firstIndex(of: easy) else { continue }
          budget.record(code == 0 && receivedBytes[slot] > 0)
          receivedBytes[slot] = 0
          if budget.claim() {
            _ = library.multiAddHandle(multi, easy)
            running += 1
          }
        }
        if running > 0 { _ = library.multiPoll(multi, nil, 0, 1_000, nil) }
      }
    }
  }

  /// A download as a C program would write it: one easy handle on a multi handle driven from the
  /// calling thread, libcurl's default options (16 KiB receive buffer), each piece libcurl hands
  /// over written straight to the file with `write(2)`, `fsync` at the end.
  struct RawLibcurlDownload: Sendable {
    private let library: CurlLibrary

    init?() {
      guard case .success(let library) = CurlLibrary.shared else { return nil }
      self.library = library
    }

    /// Downloads `url` into a new file at `path`, flushed to disk when `sync` is set.
    ///
    /// - Returns: The bytes written and when the last one was (before `fsync`), or `nil` on any
    ///   failure.
    func run(url: URL, to path: String, sync: Bool = true) -> (bytes: Int, lastByte: Date)? {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      guard let multi = library.multiInit() else { return nil }
      defer { _ = library.multiCleanup(multi) }
      guard let easy = library.easyInit() else { return nil }
      defer { library.easyCleanup(easy) }
      let sink = UnsafeMutablePointer<FileSink>.allocate(capacity: 1)
      sink.initialize(to: FileSink(descriptor: descriptor, bytes: 0, failed: false))
      defer { sink.deallocate() }
      url.absoluteString.withCString { _ = library.easySetPointer(easy, CurlConstant.url, $0) }
      _ = library.easySetLong(easy, CurlConstant.noSignal, 1)
      _ = library.easySetCallback(easy, CurlConstant.writeFunction, writeToFile)
      _ = library.easySetPointer(easy, CurlConstant.writeData, sink)
      _ = library.easySetCallback(easy, CurlConstant.headerFunction, ignoreBytes)
      let code = runToItsEnd(easy, on: multi, library: library)
      let lastByte = Date()
      guard code == 0, !sink.pointee.failed, !sync || fsync(descriptor) == 0 else { return nil }
      return (sink.pointee.bytes, lastByte)
    }
  }

  /// An upload as a C program would write it: a `POST` whose body libcurl pulls through
  /// `CURLOPT_READFUNCTION`, which `read(2)`s the file into libcurl's buffer (64 KiB by default),
  /// its size announced with `CURLOPT_POSTFIELDSIZE_LARGE`; one easy handle on a multi handle
  /// driven from the calling thread.
  ///
  /// The multi handle, and with it the connection, lasts as long as this object, and a second
  /// handle fetches `/protocol` on the same connection: nginx's connection number before and
  /// after an upload shows that the connection survived it.
  final class RawLibcurlUpload {
    /// What one upload left behind.
    struct Result {
      /// libcurl's `CURLcode`.
      var code: Int32
      var status: Int
      /// `CURLINFO_SIZE_UPLOAD_T`: the body bytes libcurl sent.
      var bytesSent: Int
    }

    private let library: CurlLibrary
    private let multi: CurlLibrary.Multi
    private let uploader: CurlLibrary.Easy
    private let prober: CurlLibrary.Easy

    init?() {
      guard case .success(let library) = CurlLibrary.shared, let multi = library.multiInit()
      else { return nil }
      guard let uploader = library.easyInit(), let prober = library.easyInit() else {
        _ = library.multiCleanup(multi)
        return nil
      }
      self.library = library
      self.multi = multi
      self.uploader = uploader
      self.prober = prober
    }

    deinit {
      library.easyCleanup(uploader)
      library.easyCleanup(prober)
      _ = library.multiCleanup(multi)
    }

    /// Sends the file at `path` (`byteCount` bytes) to `url`; `nil` when it cannot be opened.
    func upload(path: String, byteCount: Int, to url: URL) -> Result? {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      let source = UnsafeMutablePointer<FileSource>.allocate(capacity: 1)
      source.initialize(to: FileSource(descriptor: descriptor, failed: false))
      defer { source.deallocate() }
      url.absoluteString.withCString { _ = library.easySetPointer(uploader, CurlConstant.url, $0) }
      _ = library.easySetLong(uploader, CurlConstant.noSignal, 1)
      _ = library.easySetLong(uploader, CurlConstant.post, 1)
      _ = library.easySetLong(uploader, CurlConstant.postFieldSizeLarge, byteCount)
      _ = library.easySetCallback(uploader, CurlConstant.readFunction, readFromFile)
      _ = library.easySetPointer(uploader, CurlConstant.readData, source)
      _ = library.easySetCallback(uploader, CurlConstant.writeFunction, ignoreBytes)
      _ = library.easySetCallback(uploader, CurlConstant.headerFunction, ignoreBytes)
      let code = perform(uploader)
      guard !source.pointee.failed else { return Result(code: -1, status: 0, bytesSent: 0) }
      var status = 0
      var sent: Int64 = 0
      _ = withUnsafeMutableBytes(of: &status) {
        library.easyGetInfo(uploader, Self.infoResponseCode, $0.baseAddress!)
      }
      _ = withUnsafeMutableBytes(of: &sent) {
        library.easyGetInfo(uploader, CurlConstant.infoSizeUpload, $0.baseAddress!)
      }
      return Result(code: code, status: status, bytesSent: Int(sent))
    }

    /// Fetches `url` (nginx's `/protocol`) on the multi handle's connections.
    func probe(url: URL) -> ProtocolReport {
      let body = UnsafeMutablePointer<[UInt8]>.allocate(capacity: 1)
      body.initialize(to: [])
      defer { body.deinitialize(count: 1).deallocate() }
      url.absoluteString.withCString { _ = library.easySetPointer(prober, CurlConstant.url, $0) }
      _ = library.easySetLong(prober, CurlConstant.noSignal, 1)
      _ = library.easySetCallback(prober, CurlConstant.writeFunction, collectBytes)
      _ = library.easySetPointer(prober, CurlConstant.writeData, body)
      _ = library.easySetCallback(prober, CurlConstant.headerFunction, ignoreBytes)
      let code = perform(prober)
      guard code == 0 else { return ProtocolReport(failure: library.describe(code)) }
      return ProtocolReport(serverSays: String(decoding: body.pointee, as: UTF8.self))
    }

    /// `CURLINFO_RESPONSE_CODE` (a `long`), which Convoy reads from the status line instead.
    private static let infoResponseCode: Int32 = 0x20_0000 + 2

    /// Runs `easy` to its end on the multi handle; its `CURLcode`.
    private func perform(_ easy: CurlLibrary.Easy) -> Int32 {
      runToItsEnd(easy, on: multi, library: library)
    }
  }

  /// Runs `easy` to its end on `multi`, driven from the calling thread, and takes it off again;
  /// its `CURLcode`.
  private func runToItsEnd(
    _ easy: CurlLibrary.Easy, on multi: CurlLibrary.Multi, library: CurlLibrary
  ) -> Int32 {
    _ = library.multiAddHandle(multi, easy)
    var running: Int32 = 1
    var remaining: Int32 = 0
    var code: Int32 = -1
    while running > 0 {
      _ = library.multiPerform(multi, &running)
      while let message = library.multiInfoRead(multi, &remaining) {
        guard message.load(as: Int32.self) == CurlConstant.messageDone else { continue }
        code = message.load(fromByteOffset: 16, as: Int32.self)
      }
      if running > 0 { _ = library.multiPoll(multi, nil, 0, 1_000, nil) }
    }
    _ = library.multiRemoveHandle(multi, easy)
    return code
  }

  private struct FileSource {
    var descriptor: Int32
    var failed: Bool
  }

  private let readFromFile: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    let source = userdata!.assumingMemoryBound(to: FileSource.self)
    while true {
      let result = read(source.pointee.descriptor, pointer, size * count)
      if result < 0, errno == EINTR { continue }
      guard result >= 0 else {
        source.pointee.failed = true
        return CurlConstant.readAbort
      }
      return result
    }
  }

  private struct FileSink {
    var descriptor: Int32
    var bytes: Int
    var failed: Bool
  }

  private let writeToFile: CurlLibrary.DataCallback = { pointer, size, count, userdata in
    let sink = userdata!.assumingMemoryBound(to: FileSink.self)
    guard let pointer, writeAll(sink.pointee.descriptor, pointer, size * count) else {
      sink.pointee.failed = true
      return 0
    }
    sink.pointee.bytes += size * count
    return size * count
  }

  private let collectBytes: CurlLibrary.DataCallback = { pointer, size, count, body in
    if let pointer {
      let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
      body?.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: bytes)
    }
    return size * count
  }

  private let countBytes: CurlLibrary.DataCallback = { _, size, count, counter in
    counter?.assumingMemoryBound(to: Int.self).pointee += size * count
    return size * count
  }

  private let ignoreBytes: CurlLibrary.DataCallback = { _, size, count, _ in size * count }
#endif
