import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The one road every call travels: build → adapters → exchange → decisions → value.
struct CallPipeline: Sendable {
  let configuration: ServerConfiguration
  let transport: any HTTPTransport
  let decoder: JSONDecoder
  let adapters: [any RequestAdapter]
  let decisions: [any ResponseDecision]

  /// Restarts beyond this are a decision chain that never settles; the call fails instead.
  static let maximumAttempts = 16

  func run<Request: RequestDescribing>(_ request: Request) async throws -> Request.Response {
    let timeout = request.timeout ?? configuration.timeout
    let deadline = Date().addingTimeInterval(timeout)
    var context = RequestContext(
      configuration: configuration, method: request.method, path: request.path,
      authenticationRequirement: request.authenticationRequirement,
      acceptableStatusCodes: request.acceptableStatusCodes,
      decoder: request.decoder ?? decoder,
      isRetryable: (request.method.isIdempotent || request.allowsRetry)
        && (request.body?.isReplayable ?? true),
      attempt: 0, sentRequest: nil)
    var chain = request.decisions ?? decisions
    while true {
      context.attempt += 1
      context.sentRequest = nil
      try Task.checkCancellation(or: .cancelled)
      let transportRequest = try await makeTransportRequest(request, context: &context)
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw ServerConnectionError.timedOut(context.errorContext()) }
      let response = try await exchange(transportRequest, timeout: remaining, context: context)
      switch try await judge(response, for: request, with: chain, context: context) {
      case .done(let value):
        return value
      case .fail(let error):
        throw error
      case .proceed(let last):
        throw ServerConnectionError.unexpectedResponse(
          context.errorContext(statusCode: last.httpURLResponse.statusCode, body: last.data))
      case .restart(let replacement):
        guard context.attempt < Self.maximumAttempts else {
          throw ServerConnectionError.unexpectedResponse(
            context.errorContext(statusCode: response.httpURLResponse.statusCode))
        }
        chain = replacement ?? chain
      }
    }
  }

  private func judge<Request: RequestDescribing>(
    _ response: TransportResponse, for request: Request, with chain: [any ResponseDecision],
    context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    var current = response
    for decision in chain {
      let outcome = try await decision.decide(on: current, for: request, context: context)
      guard case .proceed(let next) = outcome else { return outcome }
      current = next
    }
    return .proceed(current)
  }

  private func makeTransportRequest<Request: RequestDescribing>(
    _ request: Request, context: inout RequestContext
  ) async throws -> TransportRequest {
    let url = try configuration.url(path: request.path, queryItems: request.queryItems)
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.cachePolicy = request.cachePolicy.urlRequestCachePolicy
    for field in configuration.defaultHeaders.merging(request.headers) {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    context.sentRequest = urlRequest
    var bodyFileURL: URL?
    if let body = request.body {
      switch body.content {
      case .data(let data):
        urlRequest.httpBody = data
      case .encoded(let encode):
        do {
          urlRequest.httpBody = try encode()
        } catch {
          throw ServerConnectionError.encodingFailed(
            String(describing: error), context.errorContext())
        }
      case .file(let fileURL):
        bodyFileURL = fileURL
      }
      if let contentType = body.contentType,
        urlRequest.value(forHTTPHeaderField: "Content-Type") == nil
      {
        urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
      }
    }
    for adapter in adapters + request.adapters {
      urlRequest = try await adapter.adapt(urlRequest, context: context)
      try Task.checkCancellation(or: .cancelled)
    }
    context.sentRequest = urlRequest
    return TransportRequest(
      urlRequest: urlRequest, bodyFileURL: bodyFileURL, idleTimeout: configuration.timeout)
  }

  private func exchange(
    _ request: TransportRequest, timeout: TimeInterval, context: RequestContext
  ) async throws(ServerConnectionError) -> TransportResponse {
    let result = await Exchange.perform(
      request, transport: transport, policy: configuration.redirectPolicy, timeout: timeout)
    switch result {
    case .success(let response):
      return response
    case .failure(.cancelled):
      throw .cancelled
    case .failure(.deadlinePassed(let last)):
      throw .timedOut(ErrorContext(method: context.method, url: last.urlRequest.url))
    case .failure(.transport(let failure, let last)):
      if failure.kind == .cancelled { throw .cancelled }
      throw .transportFailed(
        failure, ErrorContext(method: context.method, url: last.urlRequest.url))
    }
  }
}

extension Task where Success == Never, Failure == Never {
  /// Throws `error` when the current task is cancelled.
  static func checkCancellation(or error: ServerConnectionError) throws(ServerConnectionError) {
    if Task.isCancelled { throw error }
  }
}
