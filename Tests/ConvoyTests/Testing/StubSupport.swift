import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request whose every part a test sets, for driving stubs through the whole pipeline.
struct StubCall<Value: Decodable & Sendable>: RequestDescribing {
  typealias Response = JSONResponse<Value>
  var method: HTTPMethod = .get
  var path: String
  var queryItems: [URLQueryItem] = []
  var body: RequestBody?
  var authenticationRequirement: AuthenticationRequirement = .none
  var adapters: [any RequestAdapter] = []
}

/// A request that keeps the raw answer.
struct RawStubCall: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String
}

/// A connection to an environment whose base URL has a path, so routes must match its end.
func stubConnection(
  _ transport: any HTTPTransport, baseURL: String = "https://api.example.com/api/"
) -> ServerConnection {
  ServerConnection(
    configuration: ServerConfiguration(environment: .staging, baseURL: URL(string: baseURL)!),
    transport: transport)
}

/// A stub's view of a request built by hand, for matching tests that need no transport.
func stubRequest(
  _ method: HTTPMethod, _ url: String, body: String? = nil, headers: [String: String] = [:]
) -> StubRequest {
  var request = URLRequest(url: URL(string: url)!)
  request.httpMethod = method.rawValue
  request.httpBody = body.map { Data($0.utf8) }
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  return StubRequest(TransportRequest(urlRequest: request))
}

/// The transport failure behind `error`, if that is what it is.
func transportFailure(in error: (any Error)?) -> TransportFailure? {
  guard case .transportFailed(let failure, _)? = error as? ServerConnectionError else { return nil }
  return failure
}
