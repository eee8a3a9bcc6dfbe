import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one road every call travels: build → adapters → exchange → decisions → value, again for
/// each retry or restart.
///
/// Its async functions are `nonisolated(nonsending)`, as are `Exchange`'s and the network
/// operation's: they run on the executor of whoever awaits them (the global one: every way in
/// is a public nonisolated async function or a task), so a call does not switch executors at
/// each nested await (Architecture.md, "Threads and cancellation").
struct CallPipeline: Sendable {
  /// What every call through one connection shares, held once: a copy of the pipeline (every
  /// operation keeps one, waiting calls included) is then one reference, not a copy of the whole
  /// configuration with a retain for each value it holds.
  private final class Shared: Sendable {
    let configuration: ServerConfiguration
    let transport: any HTTPTransport
    let decoder: JSONDecoder
    let adapters: [any RequestAdapter]
    let decisions: [any ResponseDecision]
    let authentication: (any CallAuthentication)?
    let tracing: (any CallTracing)?
    let connectivity: (any ConnectivityMonitor)?

    init(
      configuration: ServerConfiguration, transport: any HTTPTransport, decoder: JSONDecoder,
      adapters: [any RequestAdapter], decisions: [any ResponseDecision],
      authentication: (any CallAuthentication)?, tracing: (any CallTracing)?,
      connectivity: (any ConnectivityMonitor)?
    ) {
      self.configuration = configuration
      self.transport = transport
      self.decoder = decoder
      self.adapters = adapters
      self.decisions = decisions
      self.authentication = authentication
      self.tracing = tracing
      self.connectivity = connectivity
    }
  }

  private let shared: Shared
  var configuration: ServerConfiguration { shared.configuration }
  var transport: any HTTPTransport { shared.transport }
  var decoder: JSONDecoder { shared.decoder }
  var adapters: [any RequestAdapter] { shared.adapters }
  var decisions: [any ResponseDecision] { shared.decisions }
  /// The session that signs `.accessToken` requests; `nil` for the pipeline that renews tokens.
  var authentication: (any CallAuthentication)? { shared.authentication }
  /// Begins a span for every call; `nil` when the connection does not trace its calls.
  var tracing: (any CallTracing)? { shared.tracing }
  /// Tells whether the network is there; `nil` when the connection has no monitor.
  var connectivity: (any ConnectivityMonitor)? { shared.connectivity }
  /// Receive every event of every call.
  var observers: [any EventObserver] = []
  /// The job the calls belong to, for events.
  var jobID: UInt64? = nil
  /// The call's metrics, started by the operation holding its network slot.
  var metrics: CallMetricsRecorder? = nil
  /// A deadline every call of this pipeline ends by, besides its own timeout: a token renewal's,
  /// which spans the calls the renewal makes.
  var deadline: Date? = nil
  /// The span of the call these calls are made for: a token renewal's caller's.
  var parentSpan: (any CallSpan)? = nil

  init(
    configuration: ServerConfiguration, transport: any HTTPTransport, decoder: JSONDecoder,
    adapters: [any RequestAdapter], decisions: [any ResponseDecision],
    authentication: (any CallAuthentication)?, tracing: (any CallTracing)? = nil,
    connectivity: (any ConnectivityMonitor)? = nil, observers: [any EventObserver] = []
  ) {
    shared = Shared(
      configuration: configuration, transport: transport, decoder: decoder, adapters: adapters,
      decisions: decisions, authentication: authentication, tracing: tracing,
      connectivity: connectivity)
    self.observers = observers
  }

  /// Restarts beyond this (plus the policy's retries) are a decision chain that never settles;
  /// the call fails instead.
  static let maximumAttempts = 16

  nonisolated(nonsending) func run<Request: RequestDescribing>(
    _ request: Request, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async throws -> Request.Response {
    let events = EventEmitter.call(
      observers: observers, jobID: jobID, method: request.method, metrics: metrics,
      span: tracing != nil ? startSpan(for: request) : nil)
    let start = Date()
    let describedURL = events.isObserved ? try? configuration.url(path: request.path) : nil
    events.emit(.requestCreated(.init(call: events.call, url: describedURL)))
    do {
      let (value, status) = try await perform(
        request, events: events, uploadProgress: uploadProgress)
      events.emitFinished(url: describedURL, startedAt: start, status: status)
      return value
    } catch {
      events.emitEnd(error, url: describedURL, startedAt: start)
      throw error
    }
  }

  nonisolated(nonsending) private func perform<Request: RequestDescribing>(
    _ request: Request, events: EventEmitter,
    uploadProgress: (@Sendable (TransferProgress) -> Void)?
  ) async throws -> (Request.Response, Int) {
    try await attempts(
      of: request, events: events, chain: request.decisions ?? decisions,
      send: { transportRequest, remaining, context in
        await exchange(
          transportRequest, timeout: remaining, context: context,
          delivery: uploadProgress.map { .wholeReportingUpload($0) } ?? .whole)
      },
      settle: { settlement, received, context in
        switch settlement {
        case .value(let value):
          return value
        case .accepted(let last):
          throw ServerConnectionError.unexpectedResponse(
            context.errorContext(statusCode: last.statusCode, body: last.data))
        }
      })
  }

  /// Begins the span of a call of `request` that starts now, as the connection's tracing asks.
  ///
  /// Not inlined, like ``reportSending(_:to:attempt:events:)``: what is built here would take
  /// room in the frame of every call, traced or not.
  @inline(never)
  func startSpan<Request: RequestDescribing>(for request: Request) -> (any CallSpan)? {
    let url = try? configuration.url(path: request.path, queryItems: request.queryItems)
    return tracing?.startSpan(
      for: TracedCall(method: request.method, url: url, parent: parentSpan))
  }

  /// What one attempt brought back: the answer to judge and, for a stream, its open body.
  struct Received: Sendable {
    var response: TransportResponse
    var body: StreamBuffer?
  }

  /// How a decision chain let an answer through: with a value, or passed on by every decision.
  enum Settlement<Value: Sendable> {
    case value(Value)
    case accepted(TransportResponse)
  }

  /// Sends `request` until the decisions settle, retrying and restarting as they and the retry
  /// policy say; `send` does one attempt's exchange, `settle` turns a settled answer into the
  /// result.
  nonisolated(nonsending) func attempts<Request: RequestDescribing, Result>(
    of request: Request, events: EventEmitter, chain initialChain: [any ResponseDecision],
    timeout: TimeInterval? = nil,
    send:
      nonisolated(nonsending) (TransportRequest, TimeInterval, RequestContext) async ->
      Swift.Result<
        Received, ServerConnectionError
      >,
    settle: (Settlement<Request.Response>, Received, RequestContext) throws -> Result
  ) async throws -> (Result, Int) {
    let timeout = timeout ?? request.timeout ?? configuration.timeout
    let bodyIsReplayable = request.body?.isReplayable ?? true
    var context = RequestContext(
      configuration: configuration, method: request.method, path: request.path,
      authenticationRequirement: request.authenticationRequirement,
      acceptableStatusCodes: request.acceptableStatusCodes,
      decoder: request.decoder ?? decoder,
      isRetryable: (request.method.isIdempotent || request.allowsRetry) && bodyIsReplayable,
      isBodyReplayable: bodyIsReplayable, attempt: 0, retries: 0,
      retryPolicy: request.retryPolicy ?? configuration.retryPolicy,
      deadline: Self.earlier(configuration.clock.now.addingTimeInterval(timeout), deadline),
      sentRequest: nil, span: events.span)
    let body = PreparedBody(request.body)
    defer { body.discard() }
    var chain = authenticationDecisions(for: request) + initialChain
    let waitsForConnectivity = request.waitsForConnectivity ?? configuration.waitsForConnectivity
    while true {
      context.attempt += 1
      context.sentRequest = nil
      // Also after a retry's wait: a call cancelled meanwhile is never sent.
      try Task.checkCancellation(or: .cancelled)
      if waitsForConnectivity,
        let monitor = offlineMonitor(for: try? configuration.url(path: request.path))
      {
        try await waitForConnectivity(
          monitor, before: context.attempt, of: request, context: context, events: events)
      }
      let transportRequest = try await makeTransportRequest(request, body: body, context: &context)
      let remaining = context.deadline.timeIntervalSince(configuration.clock.now)
      guard remaining > 0 else { throw ServerConnectionError.timedOut(context.errorContext()) }
      // Optional only in type: the request was built from the configuration's URL.
      let sentURL = try transportRequest.urlRequest.url ?? configuration.url(path: request.path)
      Self.reportSending(transportRequest, to: sentURL, attempt: context.attempt, events: events)
      let received: Received
      switch await send(transportRequest, remaining, context) {
      case .success(var answer):
        events.metrics.stamp(&answer)
        received = answer
      case .failure(.transportFailed(let reported, let errorContext)):
        let offline = offlineMonitor(for: sentURL)
        let failure = offline == nil ? reported : Self.offlineAware(reported)
        if let offline, waitsForConnectivity || failure.kind == .notConnectedToInternet {
          // Sending again while offline would fail the same way: the call waits for the
          // network (then sends at once), or fails now.
          guard waitsForConnectivity,
            retriesWhenOnline(after: reported, as: failure, context: &context)
          else { throw ServerConnectionError.transportFailed(failure, errorContext) }
          try await waitForConnectivity(
            offline, before: context.attempt + 1, of: request, context: context,
            events: events)
          continue
        }
        guard
          let delay = context.retryPolicy.delay(
            after: .failure(failure), context: context, now: configuration.clock.now)
        else { throw ServerConnectionError.transportFailed(failure, errorContext) }
        try await wait(
          delay, before: &context, url: sentURL, reason: failure.description, events: events)
        continue
      case .failure(let error):
        throw error
      }
      let response = received.response
      Self.reportReceived(response, from: sentURL, attempt: context.attempt, events: events)
      if !context.isBodyReplayable, request.body != nil,
        configuration.redirectPolicy.maximumHops > 0, [307, 308].contains(response.statusCode),
        response.headers["Location"] != nil
      {
        received.body?.cancel()
        throw ServerConnectionError.bodyNotResendable(
          "the server redirected it with \(response.statusCode)",
          context.errorContext(statusCode: response.statusCode))
      }
      context.decisions = chain
      let outcome: ResponseDecisionOutcome<Request.Response>
      do {
        if chain.allSatisfy({ $0 is any DeadlineAware }) {
          outcome = try await judge(
            response, for: request, with: chain, context: context, url: sentURL, events: events)
        } else {
          outcome = try await DeadlineRace.run(
            until: context.deadline, on: configuration.clock,
            timedOut: .timedOut(context.errorContext())
          ) { [self, chain, context] in
            try await judge(
              response, for: request, with: chain, context: context, url: sentURL,
              events: events)
          }
        }
      } catch {
        received.body?.cancel()
        throw error
      }
      switch outcome {
      case .done(let value):
        return (try settle(.value(value), received, context), response.statusCode)
      case .proceed(let last):
        return (try settle(.accepted(last), received, context), response.statusCode)
      case .fail(let error):
        received.body?.cancel()
        throw error
      case .restart(let replacement):
        received.body?.cancel()
        try checkRunaway(context, response: response)
        chain = replacement ?? chain
      case .retry(let delay):
        received.body?.cancel()
        try checkRunaway(context, response: response)
        try await wait(
          delay, before: &context, url: sentURL, reason: "status \(response.statusCode)",
          events: events)
      }
    }
  }

  /// Tells observers and the metrics that an attempt goes out.
  ///
  /// Not inlined, like ``reportReceived(_:from:attempt:events:)``: an async function's frame is
  /// taken whole when it is entered and holds a slot for every temporary inlined into it, so the
  /// events built here would make `attempts`' frame larger for the call's whole life.
  @inline(never)
  private static func reportSending(
    _ request: TransportRequest, to url: URL, attempt: Int, events: EventEmitter
  ) {
    events.emit(
      .requestAdapted(
        .init(
          call: events.call, url: url, attempt: attempt,
          headers: HTTPHeaders(request.urlRequest.allHTTPHeaderFields ?? [:]))))
    events.emit(.requestSent(.init(call: events.call, url: url, attempt: attempt)))
    events.metrics.attemptStarted()
  }

  /// Tells observers that an attempt's answer arrived.
  @inline(never)
  private static func reportReceived(
    _ response: TransportResponse, from url: URL, attempt: Int, events: EventEmitter
  ) {
    events.emit(
      .responseReceived(
        .init(
          call: events.call, url: response.head.url ?? url, attempt: attempt,
          status: response.statusCode, bytes: response.metrics.bytesReceived,
          duration: response.metrics.duration)))
  }

  private func checkRunaway(
    _ context: RequestContext, response: TransportResponse
  ) throws(ServerConnectionError) {
    guard context.attempt < Self.maximumAttempts + context.retryPolicy.maximumRetries else {
      throw .unexpectedResponse(
        context.errorContext(statusCode: response.statusCode))
    }
  }

  /// Sleeps before a retry of the attempt sent to `url`; cancelling the task ends the sleep at
  /// once.
  nonisolated(nonsending) private func wait(
    _ delay: TimeInterval, before context: inout RequestContext, url: URL,
    reason: String, events: EventEmitter
  ) async throws(ServerConnectionError) {
    context.retries += 1
    // A wait that would end past the deadline is not begun: the call could not be sent after it.
    guard configuration.clock.now.addingTimeInterval(delay) < context.deadline else {
      throw .timedOut(context.errorContext())
    }
    events.emit(
      .requestRetried(
        .init(
          call: events.call, url: url, attempt: context.attempt, delay: delay, reason: reason)))
    guard delay > 0 else { return }
    do {
      try await configuration.clock.sleep(for: delay)
    } catch {
      throw .cancelled
    }
  }

  nonisolated(nonsending) private func judge<Request: RequestDescribing>(
    _ response: TransportResponse, for request: Request, with chain: [any ResponseDecision],
    context: RequestContext, url: URL, events: EventEmitter
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    var current = response
    for decision in chain {
      let outcome = try await decision.decide(on: current, for: request, context: context)
      // A body its request calls unrepeatable is never sent twice, whichever decision asks: the
      // call fails, saying which decision asked.
      let isDeclined = !context.isBodyReplayable && outcome.sendsTheRequestAgain
      events.emit(
        .decisionTaken(
          .init(
            call: events.call, url: url, attempt: context.attempt,
            decision: String(describing: type(of: decision)), outcome: outcome.eventOutcome,
            isDeclined: isDeclined)))
      if isDeclined {
        throw ServerConnectionError.bodyNotResendable(
          "\(type(of: decision)) asked for it after status \(current.statusCode)",
          context.errorContext(statusCode: current.statusCode))
      }
      guard case .proceed(let next) = outcome else { return outcome }
      current = next
    }
    return .proceed(current)
  }

  /// Describes the request as a `URLRequest` — method, URL and query, headers, body — then lets
  /// the connection's adapters and the request's own change it, in that order.
  nonisolated(nonsending) private func makeTransportRequest<Request: RequestDescribing>(
    _ request: Request, body: PreparedBody, context: inout RequestContext
  ) async throws -> TransportRequest {
    var urlRequest = URLRequest(url: try configuration.url(path: request.path))
    // The method and the query items, written in place: the request is not yet
    // shared, so nothing is copied, and a GET without query items changes nothing at all.
    if urlRequest.httpMethod != request.method.rawValue {
      urlRequest.httpMethod = request.method.rawValue
    }
    if !request.queryItems.isEmpty {
      context.sentRequest = urlRequest
      urlRequest = try await QueryItemsAdapter(request.queryItems).adapt(
        urlRequest, context: context)
    }
    let cachePolicy = request.cachePolicy.urlRequestCachePolicy
    if urlRequest.cachePolicy != cachePolicy { urlRequest.cachePolicy = cachePolicy }
    if !configuration.defaultHeaders.isEmpty || !request.headers.isEmpty {
      for field in configuration.defaultHeaders.merging(request.headers) {
        // Checked as given: `URLRequest` recases names and, on Linux, drops some bad values.
        guard HTTPFieldSyntax.isValidName(field.name), HTTPFieldSyntax.isValidValue(field.value)
        else {
          context.sentRequest = urlRequest
          throw ServerConnectionError.invalidHeader(field.name, context.errorContext())
        }
        urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
      }
    }
    let adapterChain = adapters + request.adapters + authenticationAdapters(for: request)
    // Adapters of other kinds may read `context.sentRequest` (the request as described, before
    // any adapter). With only built-in ones nothing reads it before the request is sent, so it is
    // set afterwards: sharing the request with the context would make their change copy it.
    let onlyBuiltInAdapters = adapterChain.allSatisfy { $0 is DefaultHeaders }
    if !onlyBuiltInAdapters { context.sentRequest = urlRequest }
    let streamed: PreparedBody.Streamed
    do {
      streamed = try body.apply(to: &urlRequest)
    } catch {
      // Only the URL goes into the error, and applying a body leaves it as it was.
      context.sentRequest = urlRequest
      throw ServerConnectionError.encodingFailed(String(describing: error), context.errorContext())
    }
    if onlyBuiltInAdapters || adapterChain.allSatisfy({ $0 is any DeadlineAware }) {
      urlRequest = try await Self.adapt(urlRequest, with: adapterChain, context: context)
    } else {
      urlRequest = try await DeadlineRace.run(
        until: context.deadline, on: configuration.clock,
        timedOut: .timedOut(context.errorContext())
      ) { [urlRequest, adapterChain, context] in
        try await Self.adapt(urlRequest, with: adapterChain, context: context)
      }
    }
    if let span = context.span {
      // After every adapter, so the call's own span is what the server sees as its parent.
      for field in span.headers(forAttempt: context.attempt) {
        urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
      }
    }
    TraceContext.current?.apply(to: &urlRequest)
    context.sentRequest = urlRequest
    try Self.checkHeaders(of: urlRequest, context: context)
    var transportRequest = TransportRequest(
      urlRequest: urlRequest, idleTimeout: configuration.timeout,
      isBodyReplayable: context.isBodyReplayable,
      responseLimits: request.responseLimits ?? configuration.responseLimits)
    switch streamed {
    case .none: break
    case .file(let url): transportRequest.bodyFileURL = url
    case .stream(let body): transportRequest.bodyStream = body
    }
    return transportRequest
  }

  /// `request` changed by every adapter of `chain` in turn.
  nonisolated(nonsending) private static func adapt(
    _ request: URLRequest, with chain: [any RequestAdapter], context: RequestContext
  ) async throws -> URLRequest {
    var request = request
    for adapter in chain {
      if let defaults = adapter as? DefaultHeaders {
        // The standard adapter, applied in place: no copy of the request, no suspension.
        defaults.fill(&request)
      } else {
        request = try await adapter.adapt(request, context: context)
      }
      try Task.checkCancellation(or: .cancelled)
    }
    return request
  }

  private static func earlier(_ date: Date, _ other: Date?) -> Date {
    guard let other else { return date }
    return min(date, other)
  }

  /// Refuses a request with a field no transport can send as it is, once for every transport:
  /// libcurl would drop it without a word, URLSession would send it and get a 400 — or a value
  /// would start a line of its own. The request's own fields are checked as they are added;
  /// this catches those the adapters added.
  private static func checkHeaders(
    of request: URLRequest, context: RequestContext
  ) throws(ServerConnectionError) {
    guard let fields = request.allHTTPHeaderFields else { return }
    // The least name, so that a request with several bad fields always names the same one.
    let refused = fields.lazy.filter {
      !HTTPFieldSyntax.isValidName($0.key) || !HTTPFieldSyntax.isValidValue($0.value)
    }.map(\.key).min()
    if let refused { throw .invalidHeader(refused, context.errorContext()) }
  }

  // Signing runs after every other adapter, and renewal before every other decision (see
  // CallAuthentication).
  private func authenticationAdapters<Request: RequestDescribing>(for request: Request)
    -> [any RequestAdapter]
  {
    guard request.authenticationRequirement == .accessToken else { return [] }
    guard let authentication else { return [MissingSession()] }
    return [authentication.signingAdapter]
  }

  private func authenticationDecisions<Request: RequestDescribing>(for request: Request)
    -> [any ResponseDecision]
  {
    guard request.authenticationRequirement == .accessToken, let authentication else { return [] }
    return [authentication.renewalDecision]
  }

  /// One attempt's exchange, the only one: every hop, the deadline, the body as `delivery`
  /// asks.
  nonisolated(nonsending) func exchange(
    _ request: TransportRequest, timeout: TimeInterval, context: RequestContext,
    delivery: Exchange.Delivery
  ) async -> Result<Received, ServerConnectionError> {
    await Exchange.perform(
      request, transport: transport, policy: configuration.redirectPolicy, timeout: timeout,
      clock: configuration.clock, delivery: delivery, metrics: metrics
    )
    .map { Received(response: $0.response, body: $0.body) }
    .mapError { Self.error(for: $0, method: context.method) }
  }

  /// The error a call reports for an exchange that did not bring back an answer.
  static func error(for failure: Exchange.ExchangeFailure, method: HTTPMethod)
    -> ServerConnectionError
  {
    switch failure {
    case .cancelled:
      return .cancelled
    case .deadlinePassed(let last):
      return .timedOut(ErrorContext(method: method, url: last.urlRequest.url))
    case .transport(let failure, let last):
      if failure.kind == .cancelled { return .cancelled }
      return .transportFailed(failure, ErrorContext(method: method, url: last.urlRequest.url))
    }
  }
}

extension CallPipeline {
  /// Runs `request` and keeps the outcome as a result; a task cancellation counts as Convoy's.
  nonisolated(nonsending) func result<Request: RequestDescribing>(
    of request: Request, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) async -> Result<Request.Response, any Error> {
    do {
      return .success(try await run(request, uploadProgress: uploadProgress))
    } catch is CancellationError {
      return .failure(ServerConnectionError.cancelled)
    } catch {
      return .failure(error)
    }
  }
}

extension Task where Success == Never, Failure == Never {
  /// Throws `error` when the current task is cancelled.
  static func checkCancellation(or error: ServerConnectionError) throws(ServerConnectionError) {
    if Task.isCancelled { throw error }
  }
}

/// Fails requests that need a session on a pipeline that has none (the token-renewal pipeline).
private struct MissingSession: RequestAdapter, DeadlineAware {
  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    throw ServerConnectionError.notAuthenticated(context.errorContext())
  }
}
