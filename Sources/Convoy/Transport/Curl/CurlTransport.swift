#if os(Linux)
  import Foundation

  /// A transport on the system libcurl, several times faster than FoundationNetworking's
  /// `URLSession` on Linux and at a fraction of its CPU (see `Docs/Performance.md`).
  ///
  /// It behaves like ``URLSessionTransport`` wherever Convoy defines behaviour: it follows no
  /// redirects (``RedirectPolicy`` does, above every transport), honours
  /// ``TransportRequest/idleTimeout``, keeps repeated response header fields apart, decodes
  /// gzip, deflate and brotli bodies, and maps libcurl's errors to ``TransportFailure`` kinds.
  ///
  /// One thread per transport owns a libcurl multi handle, so connections are reused and an HTTPS
  /// server offering HTTP/2 gets many transfers multiplexed over one connection. Proxies come from
  /// the environment as libcurl reads them (`http_proxy`, `https_proxy`, `no_proxy`). Certificates
  /// are always verified: against the system CA store, and whatever ``TLSConfiguration`` adds
  /// (authorities, public-key pins, a client certificate, a minimum version).
  ///
  /// ```swift
  /// let transport: any HTTPTransport = (try? CurlTransport()) ?? URLSessionTransport()
  /// let connection = ServerConnection(configuration: .production, transport: transport)
  /// ```
  ///
  /// Completions run on the transport's own thread: they must return quickly, as Convoy's do.
  public final class CurlTransport: HTTPTransport {
    private let library: CurlLibrary
    private let loop: CurlMultiThread
    private let handles: EasyHandlePool
    private let headerLists = CurlHeaderListMemo()
    private let userAgent: String
    private let tls: CurlTLSOptions?
    private let proxy: ProxyConfiguration?

    /// Loads libcurl (once per process) and starts the transport's thread.
    ///
    /// - Throws: ``CurlTransportUnavailable`` when `libcurl.so.4` cannot be loaded, is older than
    ///   7.68, or lacks a function Convoy calls.
    public convenience init() throws(CurlTransportUnavailable) {
      try self.init(library: CurlLibrary.shared.get(), tls: nil, proxy: nil)
    }

    /// A transport whose HTTPS connections follow `tls`, and which sends every call through
    /// `proxy` when given one: every setting of ``TLSConfiguration`` is honoured, certificate
    /// files are read now.
    ///
    /// ```swift
    /// let ca = URL(fileURLWithPath: "/etc/convoy/staging-ca.pem")
    /// let transport = try CurlTransport(tls: TLSConfiguration(trustedCertificates: [.file(ca)]))
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: Trust, pins, client certificate, minimum version.
    ///   - proxy: A proxy for every call, replacing the environment's (`http_proxy`, `no_proxy`);
    ///     `nil` keeps libcurl's reading of the environment.
    /// - Throws: ``CurlTransportUnavailable`` as ``init()``, or ``TLSConfigurationError`` for a
    ///   setting that is wrong (an unreadable file, a malformed pin) or that this libcurl is too
    ///   old for.
    public convenience init(tls configuration: TLSConfiguration, proxy: ProxyConfiguration? = nil)
      throws
    {
      let library = try CurlLibrary.shared.get()
      let tls =
        configuration == .platform ? nil : try CurlTLSOptions(configuration, library: library)
      try self.init(library: library, tls: tls, proxy: proxy)
    }

    /// A transport whose handles all carry `tls` and `proxy` (see ``EasyHandlePool``).
    private init(
      library: CurlLibrary, tls: CurlTLSOptions?, proxy: ProxyConfiguration?
    ) throws(CurlTransportUnavailable) {
      self.library = library
      self.tls = tls
      self.proxy = proxy
      loop = try CurlMultiThread(library: library)
      handles = EasyHandlePool(library: library) { easy in
        CurlTransfer.prepare(easy, library: library, tls: tls, proxy: proxy)
      }
      userAgent = "\(ProcessInfo.processInfo.processName) (unknown version) curl/\(library.version)"
    }

    deinit {
      loop.stop()
    }

    /// The loaded libcurl's version, such as `"7.88.1"`, or `nil` when it cannot be used.
    public static var libcurlVersion: String? {
      try? CurlLibrary.shared.get().version
    }

    /// Why ``init()`` would fail in this process, or `nil` when libcurl is usable.
    public static var unavailability: CurlTransportUnavailable? {
      if case .failure(let reason) = CurlLibrary.shared { return reason }
      return nil
    }

    /// Sends `request` on the transport's thread: a body read whole is collected by libcurl's
    /// callbacks straight into one buffer; a streamed one is handed over as libcurl reads it. A
    /// reader that pauses makes libcurl stop reading from the socket (the bytes it already holds
    /// wait inside libcurl), so the server is slowed down by TCP or HTTP/2 flow control instead of
    /// memory growing.
    public nonisolated(nonsending) func send(_ request: TransportRequest)
      async throws(TransportFailure) -> TransportAnswer
    {
      switch request.answerDelivery {
      case .whole where request.uploadProgress == nil:
        try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
      case .whole:
        try await CallbackTransfer.collected(request) {
          startStreamingTransfer(request, receiver: $0)
        }
      case .streamed:
        try await CallbackTransfer.streamed(request) {
          startStreamingTransfer(request, receiver: $0)
        }
      }
    }

    /// Configures an easy handle for `request` on the calling thread and hands it to the
    /// transport's thread; `completion` gets the whole answer. `package` for the benchmark that
    /// measures the transport beneath its `send`.
    package func startTransfer(
      _ request: TransportRequest,
      completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> any TransferHandle {
      start(request, consumer: .buffered(completion)) { failure in
        DispatchQueue.global().async { completion(.failure(failure)) }
      }
    }

    /// Starts `request`, handing the answer to `receiver` as libcurl reads it.
    func startStreamingTransfer(
      _ request: TransportRequest, receiver: any TransferReceiver
    ) -> any StreamingTransferHandle {
      start(request, consumer: .streamed(receiver)) { failure in
        DispatchQueue.global().async { receiver.transferDidComplete(.failure(failure)) }
      }
    }

    private func start(
      _ request: TransportRequest, consumer: CurlTransfer.Consumer,
      failedToStart: (TransportFailure) -> Void
    ) -> any StreamingTransferHandle {
      let transfer: CurlTransfer
      do {
        transfer = try CurlTransfer(
          request: request, library: library, handles: handles, headerLists: headerLists,
          loop: loop, defaultUserAgent: userAgent, consumer: consumer)
      } catch {
        failedToStart(error)
        return NothingToCancel()
      }
      if !loop.submit(transfer) {
        transfer.abandon(reason: "the transport was shut down")
      }
      return transfer
    }
  }

  extension CurlTransport: WebSocketChannelOpening {
    /// A connection of its own for a WebSocket, with the transport's TLS settings and proxy: never
    /// a pooled one, since it stays open for as long as the WebSocket does.
    package func openWebSocketChannel(to url: URL, timeout: TimeInterval)
      async throws(TransportFailure) -> any WebSocketChannel
    {
      guard let easy = library.easyInit() else {
        throw TransportFailure(kind: .other, detail: "libcurl could not make a handle")
      }
      CurlTransfer.prepare(easy, library: library, tls: tls, proxy: proxy)
      return try await CurlWebSocketChannel.connect(
        easy, to: url, timeout: timeout, library: library)
    }
  }
#endif
