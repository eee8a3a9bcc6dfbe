import ConvoyTesting
import Foundation

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request whose every knob the pipeline tests turn.
struct ProbeRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String = "probe"
  var queryItems: [URLQueryItem] = []
  var headers: HTTPHeaders = HTTPHeaders()
  var body: RequestBody? = nil
  var acceptableStatusCodes: Range<Int> = 200..<300
  var timeout: TimeInterval? = nil
  var allowsRetry: Bool = false
  var retryPolicy: RetryPolicy? = nil
  var adapters: [any RequestAdapter] = []
  var decisions: [any ResponseDecision]? = nil
}

/// Retries at once, so tests that count attempts take no time.
let instantRetries = RetryPolicy(maximumRetries: 2, baseDelay: 0, jitter: 0)

let probeConfiguration = ServerConfiguration(
  environment: .staging, baseURL: URL(string: "https://api.example.com/")!,
  retryPolicy: instantRetries)

/// A connection over `transport` with the standard chains.
func probeConnection(
  _ transport: StubTransport, configuration: ServerConfiguration = probeConfiguration
) -> ServerConnection {
  ServerConnection(configuration: configuration, transport: transport)
}

/// A connection over `transport` whose events land in `events`.
func observedConnection(
  _ transport: StubTransport, events: Locked<[ConvoyEvent]>,
  configuration: ServerConfiguration = probeConfiguration
) -> ServerConnection {
  ServerConnection(
    configuration: configuration, transport: transport,
    observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }])
}

extension RequestContext {
  /// A context for calling decisions and policies directly.
  static func probe(
    method: HTTPMethod = .get, acceptableStatusCodes: Range<Int> = 200..<300,
    isRetryable: Bool = true, retries: Int = 0, retryPolicy: RetryPolicy = .standard,
    deadline: Date = Date().addingTimeInterval(60)
  ) -> RequestContext {
    RequestContext(
      configuration: probeConfiguration, method: method, path: "probe",
      authenticationRequirement: .none, acceptableStatusCodes: acceptableStatusCodes,
      decoder: JSONDecoder(), isRetryable: isRetryable, attempt: retries + 1, retries: retries,
      retryPolicy: retryPolicy, deadline: deadline, sentRequest: nil)
  }
}

/// A response as a transport would hand it to the decisions.
func transportResponse(
  status: Int, headers: HTTPHeaders = [:], body: Data = Data()
) -> TransportResponse {
  let url = URL(string: "https://api.example.com/probe")!
  return TransportResponse(
    head: HTTPResponse(statusCode: status, url: url, headers: headers), data: body,
    metrics: TransferMetrics(startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0))
}

/// Counts how often it runs: once per attempt.
struct CountingAdapter: RequestAdapter {
  let count = Locked(0)

  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    count.withLock { $0 += 1 }
    return request
  }
}

extension Locked where Value == Int {
  /// Adds one and returns the value before, so stubs can answer by call number from 0.
  func next() -> Int {
    withLock { value in
      defer { value += 1 }
      return value
    }
  }
}
