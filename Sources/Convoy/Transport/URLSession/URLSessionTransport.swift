import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Security) && !canImport(FoundationNetworking)
  // `tls_protocol_version_t`, for the minimum TLS version.
  import Security
#endif

/// The default transport: Foundation's `URLSession`, with the corrections Linux needs.
///
/// - Redirects are handed back as 3xx answers so that ``RedirectPolicy`` applies them.
/// - Authentication challenges are refused, so a `401` with `WWW-Authenticate: Basic` comes back
///   as a `401` answer instead of hanging FoundationNetworking forever.
/// - The session keeps no `URLCache`: Convoy's own cache decides what is reused.
/// - The session keeps no cookies: ``CookieTransport`` and a ``CookieJar`` do, for every transport.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession
  private let streamingTasks = URLSessionStreamingTasks()
  /// Why the delegate refused a server's trust, by task: the task itself only reports that its
  /// challenge was cancelled.
  private let trustFailures = Locked<[Int: TransportFailure]>([:])

  /// Creates a transport with its own session built from `configuration`.
  ///
  /// The configuration's `urlCache` is removed; use Convoy's HTTP cache instead.
  public convenience init(configuration: URLSessionConfiguration = .default) {
    self.init(configuration: configuration, trust: nil)
  }

  private init(configuration: URLSessionConfiguration, trust: URLSessionTrust?) {
    let configuration = configuration.copy() as! URLSessionConfiguration
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Cookies are Convoy's (CookieJar, CookieTransport), the same on every transport: the
    // session neither stores nor sends any of its own.
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    #if canImport(FoundationNetworking)
      // Delegate events run where FoundationNetworking reports them, so a body arrives no
      // faster than its receiver takes it and a limit stops it at once (InlineDelegateQueue).
      let delegateQueue: OperationQueue? = InlineDelegateQueue()
    #else
      let delegateQueue: OperationQueue? = nil
    #endif
    session = URLSession(
      configuration: configuration,
      delegate: SessionDelegate(
        streamingTasks: streamingTasks, trust: trust, trustFailures: trustFailures),
      delegateQueue: delegateQueue)
  }

  /// A transport whose HTTPS connections follow `tls`.
  ///
  /// On Apple platforms the session's delegate evaluates server trust with `SecTrust` (extra
  /// authorities, pins) and answers client-certificate challenges with a PKCS#12 identity; the
  /// minimum version goes to `tlsMinimumSupportedProtocolVersion`. On Linux, FoundationNetworking
  /// cannot evaluate server trust in a delegate (`URLProtectionSpace.serverTrust` is
  /// unsupported), has no client identities and cannot set a minimum TLS version, so every setting
  /// but the platform's own is refused there with the setting named: use
  /// ``CurlTransport/init(tls:proxy:)``, which honours them all.
  ///
  /// - Throws: ``TLSConfigurationError`` for a setting that is wrong or that this platform's
  ///   `URLSession` cannot honour.
  public convenience init(
    configuration: URLSessionConfiguration = .default, tls: TLSConfiguration
  ) throws(TLSConfigurationError) {
    let trust = try URLSessionTrust(tls)
    let configuration = configuration.copy() as! URLSessionConfiguration
    #if !canImport(FoundationNetworking)
      switch tls.minimumVersion {
      case .tls12: configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
      case .tls13: configuration.tlsMinimumSupportedProtocolVersion = .TLSv13
      case nil: break
      }
    #endif
    self.init(configuration: configuration, trust: tls == .platform ? nil : trust)
  }

  deinit {
    // The last reference can drop on the session's own delegate queue (a transfer's completion
    // releasing its exchange); invalidating synchronously there traps in FoundationNetworking.
    let session = self.session
    DispatchQueue.global().async { session.invalidateAndCancel() }
  }

  /// Sends `request` with a data task, or an upload task when the body is a file. A body read
  /// whole is collected from the session's delegate events into one answer
  /// (`BufferingReceiver`): only the delegate sees the head of an answer whose body then fails.
  /// A streamed one is handed over as it arrives; pausing suspends the task, and
  /// FoundationNetworking then stops reading from the connection until it is resumed.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    switch request.answerDelivery {
    case .whole:
      try await CallbackTransfer.whole(request) { startTransfer(request, completion: $0) }
    case .streamed:
      try await CallbackTransfer.streamed(request) {
        startStreamingTransfer(request, receiver: $0)
      }
    }
  }

  /// Starts `request`, collecting the whole answer for `completion`.
  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    // The body limit is checked as the body arrives: FoundationNetworking would otherwise hold
    // an endless body until memory runs out.
    let receiver = BufferingReceiver(
      limits: request.responseLimits, uploadProgress: request.uploadProgress,
      completion: completion)
    return start(request, receiver: receiver) { receiver.attach($0) }
  }

  /// Starts `request`, handing the answer to `receiver` as it arrives.
  func startStreamingTransfer(
    _ request: TransportRequest, receiver: any TransferReceiver
  ) -> any StreamingTransferHandle {
    start(request, receiver: receiver) { _ in }
  }

  /// Starts the task once `attach` has the handle: a body limit passed in the very first
  /// delegate event then stops the transfer from inside that event, where it can be paused at
  /// once, instead of later from the caller's thread, after the caller returned (under load,
  /// tens of MiB later).
  private func start(
    _ request: TransportRequest, receiver: any TransferReceiver,
    attach: (URLSessionStreamingTask) -> Void
  ) -> any StreamingTransferHandle {
    if request.bodyStream != nil {
      DispatchQueue.global().async { receiver.transferDidComplete(.failure(Self.noStreamedBodies)) }
      return NothingToCancel()
    }
    let urlRequest = Self.sessionRequest(for: request)
    let streaming = URLSessionStreamingTask(
      receiver: receiver, bytesSent: Self.bodySize(of: request))
    attach(streaming)
    #if canImport(FoundationNetworking)
      // Started from inside a delegate event (a cache asking again after a 304 it cannot use),
      // creating the task would wait on the session's work queue, which is running that event.
      if InlineDelegateQueue.isDelivering {
        InlineDelegateQueue.sessionCalls.async { [self] in
          begin(streaming, urlRequest, bodyFileURL: request.bodyFileURL)
        }
        return streaming
      }
    #endif
    begin(streaming, urlRequest, bodyFileURL: request.bodyFileURL)
    return streaming
  }

  private func begin(
    _ streaming: URLSessionStreamingTask, _ urlRequest: URLRequest, bodyFileURL: URL?
  ) {
    let task: URLSessionTask
    if let bodyFileURL {
      task = session.uploadTask(with: urlRequest, fromFile: bodyFileURL)
    } else {
      task = session.dataTask(with: urlRequest)
    }
    streamingTasks.add(streaming, for: task.taskIdentifier)
    streaming.start(task)
  }

  /// Why a streamed request body is refused. On Linux, FoundationNetworking reads a body stream
  /// on its session's work queue and takes a stream with no bytes ready at that moment for the
  /// end of the body, which would send a request cut short as if it were whole. On Apple
  /// platforms, streamed bodies are not wired to this transport yet.
  static let noStreamedBodies = TransportFailure(
    kind: .notSupportedByTransport,
    detail: "URLSessionTransport cannot stream a request body; use CurlTransport")

  /// Runs `work`, a call into the session, at once or, inside a delegate event, where it cannot
  /// wait on the session's work queue (``InlineDelegateQueue``).
  static func callSession(_ work: @escaping @Sendable () -> Void) {
    #if canImport(FoundationNetworking)
      InlineDelegateQueue.outsideDelivery(work)
    #else
      work()
    #endif
  }

  /// The request as the session must see it: the idle timeout as its timeout, and no caching.
  private static func sessionRequest(for request: TransportRequest) -> URLRequest {
    var urlRequest = request.urlRequest
    // Each change copies the shared request's NSMutableURLRequest: change only what differs.
    if urlRequest.timeoutInterval != request.idleTimeout {
      urlRequest.timeoutInterval = request.idleTimeout
    }
    if urlRequest.cachePolicy != .reloadIgnoringLocalCacheData {
      urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
    }
    #if canImport(FoundationNetworking)
      // An answer with trailer fields stops the process inside FoundationNetworking; a server
      // that honours `TE` sends none to a request that does not ask for them.
      if urlRequest.value(forHTTPHeaderField: "TE")?.lowercased().contains("trailers") == true {
        urlRequest.setValue(nil, forHTTPHeaderField: "TE")
      }
    #endif
    return urlRequest
  }

  private static func bodySize(of request: TransportRequest) -> Int {
    request.urlRequest.httpBody?.count ?? request.bodyFileURL.flatMap(Self.fileSize) ?? 0
  }

  /// Why `response`'s head cannot frame a body (``ContentLengthField``), or `nil`. The session
  /// joins repeated fields with ", ", which the check reads as one list.
  static func framingProblem(of response: HTTPURLResponse) -> String? {
    guard let length = response.value(forHTTPHeaderField: "Content-Length") else { return nil }
    return ContentLengthField.problem(in: [length])
  }

  /// The failure for a task that ended with `error` and no HTTP answer to report.
  static func failure(for error: (any Error)?) -> TransportFailure {
    if let urlError = error as? URLError {
      return failure(for: urlError)
    }
    if let error {
      return TransportFailure(kind: .other, detail: String(describing: error))
    }
    return TransportFailure(kind: .badServerResponse, detail: "the answer was not HTTP")
  }

  /// FoundationNetworking reports several faults as `URLError.unknown` (-1) or a code that blames
  /// the app, carrying libcurl's sentence as the description: a failed TLS handshake, a body
  /// shorter than its `Content-Length`, a garbage status line (`unsupportedURL`). The sentence
  /// names the fault, so it is read the way ``CurlTransport`` reads it.
  private static func failure(for error: URLError) -> TransportFailure {
    #if canImport(FoundationNetworking)
      let text = error.localizedDescription
      let base = TransportFailure.Kind(error.code)
      let refined = LibcurlErrorMessage.refine(base, message: text)
      if refined != base {
        return TransportFailure(kind: refined, detail: "URLError \(error.code.rawValue): \(text)")
      }
      let mentionsTLS = ["SSL", "TLS"].contains {
        text.range(of: $0, options: .caseInsensitive) != nil
      }
      if error.code == .unknown, mentionsTLS {
        return TransportFailure(kind: .secureConnectionFailed, detail: "URLError -1 (TLS)")
      }
    #endif
    return TransportFailure(error)
  }

  private static func fileSize(_ url: URL) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
  }

  private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let streamingTasks: URLSessionStreamingTasks
    private let trust: URLSessionTrust?
    private let trustFailures: Locked<[Int: TransportFailure]>

    init(
      streamingTasks: URLSessionStreamingTasks, trust: URLSessionTrust?,
      trustFailures: Locked<[Int: TransportFailure]>
    ) {
      self.streamingTasks = streamingTasks
      self.trust = trust
      self.trustFailures = trustFailures
    }

    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
      let proceed = streamingTasks[dataTask.taskIdentifier]?.didReceive(response) ?? true
      completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      streamingTasks[dataTask.taskIdentifier]?.didReceive(data)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
      totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
      streamingTasks[task.taskIdentifier]?.didSend(totalBytesSent, of: totalBytesExpectedToSend)
    }

    #if !canImport(FoundationNetworking)
      // Delivered before `didCompleteWithError`; FoundationNetworking never calls it.
      func urlSession(
        _ session: URLSession, task: URLSessionTask,
        didFinishCollecting metrics: URLSessionTaskMetrics
      ) {
        streamingTasks[task.taskIdentifier]?.didCollect(metrics)
      }
    #endif

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      let streaming = streamingTasks.remove(task.taskIdentifier)
      if let failure = trustFailures.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
        streaming?.didFail(failure)
        return
      }
      streaming?.didComplete(error: error, response: task.response)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
      completionHandler:
        @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
      #if !canImport(FoundationNetworking)
        let method = challenge.protectionSpace.authenticationMethod
        if method == NSURLAuthenticationMethodServerTrust {
          // Without a TLSConfiguration the system evaluates trust as usual.
          guard let trust, let serverTrust = challenge.protectionSpace.serverTrust else {
            completionHandler(.performDefaultHandling, nil)
            return
          }
          if let failure = trust.failure(evaluating: serverTrust) {
            trustFailures.withLock { $0[task.taskIdentifier] = failure }
            completionHandler(.cancelAuthenticationChallenge, nil)
          } else {
            completionHandler(.useCredential, URLCredential(trust: serverTrust))
          }
          return
        }
        if method == NSURLAuthenticationMethodClientCertificate,
          let credential = trust?.clientCredential
        {
          completionHandler(.useCredential, credential)
          return
        }
      #endif
      // Credentials are Convoy's business (headers), never the session's. Refusing cancels the
      // task, a call into the session.
      URLSessionTransport.callSession { completionHandler(.cancelAuthenticationChallenge, nil) }
    }
  }
}
