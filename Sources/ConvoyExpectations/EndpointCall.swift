import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One call made for an expectation, and everything a failure report needs about it.
struct EndpointCall<Response: Sendable>: Sendable {
  /// What the call produced.
  let result: Result<Response, any Error>
  /// The request, as the test wrote it.
  let request: String
  /// What went over the wire (request lines), when the server or stub could tell.
  let sent: [String]
  /// The heads of the answers the pipeline received, from the call's events.
  let received: [String]

  /// Runs `request` on a connection of its own made of `configuration` and `transport` (the
  /// platform's when `nil`), observing its events; `sent` lists what the server or stub received
  /// from a given count of requests on.
  static func run<Request: RequestDescribing>(
    _ request: Request, configuration: ServerConfiguration, transport: (any HTTPTransport)?,
    sent: @escaping @Sendable (Int) -> [String]
  ) async -> EndpointCall<Request.Response> where Request.Response == Response {
    let heads = Locked<[String]>([])
    let observer = AnyEventObserver { event in
      if case .responseReceived(let answer) = event.kind {
        heads.withLock {
          $0.append("\(answer.status), \(answer.bytes) body bytes from \(answer.url)")
        }
      }
    }
    let connection = ServerConnection(
      configuration: configuration, transport: transport, observers: [observer])
    let before = sent(0).count
    let call = await run(request, on: connection)
    return EndpointCall(
      result: call.result, request: call.request, sent: sent(before), received: heads.current)
  }

  /// Runs `request` on `connection` as it is; only the outcome can be reported.
  static func run<Request: RequestDescribing>(_ request: Request, on connection: ServerConnection)
    async -> EndpointCall<Request.Response> where Request.Response == Response
  {
    let result: Result<Response, any Error>
    do {
      result = .success(try await connection.execute(request))
    } catch {
      result = .failure(error)
    }
    return EndpointCall(
      result: result, request: String(describing: request), sent: [], received: [])
  }

  /// The response when it decoded to `expected`; otherwise records an issue and returns the
  /// response (if any) anyway.
  func check<Value: Equatable & Sendable>(
    succeedsWith expected: Value, sourceLocation: SourceLocation
  ) -> Response? where Response == JSONResponse<Value> {
    switch result {
    case .success(let response) where response.value == expected:
      return response
    case .success(let response):
      record(
        "succeeded with a different value", produced: "value: \(response.value)",
        expected: "value: \(expected)", at: sourceLocation)
      return response
    case .failure(let error):
      record(
        "failed", produced: describe(error), expected: "value: \(expected)", at: sourceLocation)
      return nil
    }
  }

  /// The error when it is of `category`; otherwise records an issue.
  func check(failsWith category: ErrorCategory, sourceLocation: SourceLocation) -> (any Error)? {
    switch result {
    case .success(let response):
      record(
        "succeeded", produced: describe(answer: response),
        expected: "a failure of category \(category)", at: sourceLocation)
      return nil
    case .failure(let error):
      if ErrorMessageProvider.category(of: error) != category {
        record(
          "failed differently", produced: describe(error),
          expected: "a failure of category \(category)", at: sourceLocation)
      }
      return error
    }
  }

  /// What the response holds (the decoded value, the body's size) and the status and header
  /// names of its answer. Header values are left out, as they are for the request: a `Set-Cookie`
  /// or a token header is a credential, and no list of names can tell every such header apart.
  private func describe(answer response: Response) -> String {
    var text = (response as? any ReportedResponse)?.reportedContent ?? "a \(Response.self)"
    if let head = (response as? any HTTPResponseProviding)?.response {
      let names = head.headers.fields.map(\.name).joined(separator: ", ")
      text += "\n  answer: \(head.statusCode) [\(names)]"
    }
    return text
  }

  private func describe(_ error: any Error) -> String {
    "error: \(error)\n  category: \(ErrorMessageProvider.category(of: error))"
  }

  private func record(
    _ what: String, produced: String, expected: String, at sourceLocation: SourceLocation
  ) {
    var lines = ["\(request) \(what)."]
    lines.append("  expected: \(expected)")
    lines.append("  \(produced)")
    for line in sent { lines.append("  sent: \(line)") }
    for line in received { lines.append("  came back: \(line)") }
    if sent.isEmpty && received.isEmpty {
      lines.append("  (nothing is known of the exchange itself on a connection given as is)")
    }
    Issue.record(Comment(rawValue: lines.joined(separator: "\n")), sourceLocation: sourceLocation)
  }
}

extension MockServer {
  /// The requests received from the `start`-th on, one line each.
  @Sendable func sentSince(_ start: Int) -> [String] {
    requests.dropFirst(start).map(\.description)
  }
}

extension StubTransport {
  /// The requests sent from the `start`-th on, one line each (header names only: values may be
  /// credentials).
  @Sendable func sentSince(_ start: Int) -> [String] {
    requests.dropFirst(start).map { request in
      let head = request.urlRequest
      let names = (head.allHTTPHeaderFields ?? [:]).keys.sorted().joined(separator: ", ")
      return "\(head.httpMethod ?? "GET") \(head.url?.absoluteString ?? "?") [\(names)]"
    }
  }
}
