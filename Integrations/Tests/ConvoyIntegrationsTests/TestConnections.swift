import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request whose query carries a secret, as a token in a URL would.
struct Places: RequestDescribing {
  typealias Response = JSONResponse<[String: Int]>
  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
  var queryItems: [URLQueryItem] {
    [
      URLQueryItem(name: "access_token", value: "tok-s3cret"),
      URLQueryItem(name: "page", value: "2"),
    ]
  }
  var headers: HTTPHeaders { ["Authorization": "Bearer tok-s3cret"] }
}

/// A connection to a stubbed server answering every request with `answer`, retrying at once.
func stubbedConnection(
  observers: [any EventObserver] = [], retries: Int = 2, _ answer: StubAnswer
) -> (ServerConnection, StubTransport) {
  let transport = StubTransport { _ in answer }
  var configuration = ServerConfiguration(
    environment: .staging, baseURL: URL(string: "https://api.example.com/")!)
  configuration.retryPolicy = RetryPolicy(maximumRetries: retries, baseDelay: 0, jitter: 0)
  return (
    ServerConnection(configuration: configuration, transport: transport, observers: observers),
    transport
  )
}

/// Whether `condition` comes to hold, checked every few milliseconds for up to a minute: a wait
/// for what another thread finishes, never a sleep followed by an assertion.
func eventually(_ condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(60)
  while Date() < deadline {
    if condition() { return true }
    try? await Task.sleep(nanoseconds: 2_000_000)
  }
  return condition()
}
