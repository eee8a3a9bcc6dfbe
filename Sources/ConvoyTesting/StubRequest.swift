import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request as a stub sees it: method, path, query, headers and the whole body, plus the
/// values of a route's `{placeholders}`.
///
/// Recorded by ``StubRoutes`` for assertions and handed to `.closure` answers.
public struct StubRequest: Sendable {
  /// The request as the transport got it, with its body in `urlRequest.httpBody` even when it
  /// was sent from a file or a stream.
  public let transportRequest: TransportRequest
  /// The body bytes; empty when there was none.
  public let body: Data
  /// The values of the matched route's placeholders: `["id": "7"]` for `v2/places/{id}`.
  public internal(set) var pathParameters: [String: String] = [:]

  /// Creates the stub's view of `request`, reading a file body into memory.
  public init(_ request: TransportRequest) {
    var request = request
    let body =
      request.urlRequest.httpBody
      ?? request.bodyFileURL.flatMap { try? Data(contentsOf: $0) }
      ?? request.urlRequest.httpBodyStream.map(Self.readAll)
      ?? Data()
    if !body.isEmpty { request.urlRequest.httpBody = body }
    self.transportRequest = request
    self.body = body
  }

  /// The method, URL, headers and body.
  public var urlRequest: URLRequest { transportRequest.urlRequest }

  /// The method, `GET` when the request named none.
  public var method: HTTPMethod { HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET") }

  /// The URL.
  public var url: URL { urlRequest.url ?? URL(string: "http://stub.invalid/")! }

  /// The path's segments, percent-decoded; empty segments (double or trailing slashes) dropped.
  public var pathSegments: [String] {
    let encoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
    return encoded.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
  }

  /// The query items, decoded.
  public var queryItems: [URLQueryItem] {
    URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
  }

  /// The first value of the query item `name`.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The value of the header `name`, compared without case.
  public func header(_ name: String) -> String? {
    urlRequest.value(forHTTPHeaderField: name)
  }

  /// The body as UTF-8 text.
  public var bodyText: String { String(decoding: body, as: UTF8.self) }

  /// The body parsed as JSON, or `nil` when it is not JSON.
  public var jsonBody: Any? {
    try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
  }

  /// The body decoded as `application/x-www-form-urlencoded` fields; the last of repeated
  /// names wins.
  public var formBody: [String: String] {
    FormEncodedFields.decode(bodyText)
  }

  /// The body decoded from JSON as `type`.
  public func decodeBody<Value: Decodable>(
    _ type: Value.Type, decoder: JSONDecoder = JSONDecoder()
  ) throws -> Value {
    try decoder.decode(type, from: body)
  }

  private static func readAll(_ stream: InputStream) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    stream.open()
    defer { stream.close() }
    while true {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { break }
      data.append(buffer, count: count)
    }
    return data
  }
}

extension StubRequest: CustomStringConvertible {
  /// `POST https://api.example.com/oauth/token`, with secrets in the URL redacted and without
  /// the body.
  public var description: String { "\(method) \(SecretRedactor.redact(url))" }
}
