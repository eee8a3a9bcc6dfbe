import Convoy
import Foundation

/// One request as a ``MockServer`` received it: the head, the body, and where and when it came.
public struct RecordedRequest: Sendable, CustomStringConvertible {
  /// The method, as sent (`GET`, `POST`, …).
  public var method: String
  /// The request target as sent: the path with its query, e.g. `/places?page=2`.
  public var target: String
  /// The HTTP version of the request line, e.g. `HTTP/1.1`.
  public var version: String
  /// The header fields, in the order they came.
  public var headers: HTTPHeaders
  /// The body, de-chunked; empty when there was none.
  public var body: Data
  /// The trailer fields sent after a chunked body; empty when there were none.
  public var trailers = HTTPHeaders()
  /// Whether the whole body arrived: `false` when the client went away (or the answer's
  /// fault hung up) before its end.
  public var isComplete: Bool
  /// Which connection carried it: 1 for the server's first connection, 2 for the next, …
  public var connection: Int
  /// Its place among the requests of its connection: 0 for the first, so anything above 0
  /// proves the connection was kept alive and reused.
  public var indexOnConnection: Int
  /// Its place among every request the server received: 0 for the first.
  public var sequenceNumber: Int

  /// The path of the target, without its query.
  public var path: String {
    String(target.prefix { $0 != "?" })
  }

  /// The query items of the target, percent-decoded; empty when it has none.
  public var queryItems: [URLQueryItem] {
    URLComponents(string: target)?.queryItems ?? []
  }

  /// The first query item called `name`, decoded; `nil` when there is none.
  public func queryValue(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The body as UTF-8 text.
  public var bodyText: String {
    String(decoding: body, as: UTF8.self)
  }

  /// The body decoded as `application/x-www-form-urlencoded` fields; the last of repeated
  /// names wins.
  public var formBody: [String: String] {
    FormEncodedFields.decode(bodyText)
  }

  /// The request line and the header names, for a test's failure message (values are left out,
  /// as they may hold credentials).
  public var description: String {
    let names = headers.fields.map(\.name).joined(separator: ", ")
    return "\(method) \(target) \(version) [\(names)] \(body.count) body bytes"
      + (isComplete ? "" : " (incomplete)") + " on connection \(connection)"
  }
}
