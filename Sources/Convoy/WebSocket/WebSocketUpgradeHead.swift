import Foundation

/// The HTTP/1.1 upgrade request a WebSocket starts with, and the server's answer head read off
/// the channel before the first frame (RFC 6455 §4.1).
struct WebSocketUpgradeHead {
  /// The status, the header fields, and what came after the head (the first frames, when the
  /// server sent some at once).
  var status: Int
  var headers: HTTPHeaders
  var leftover: Data

  /// The request head: `GET <path>?<query> HTTP/1.1`, `Host`, then `fields`.
  static func request(for url: URL, fields: HTTPHeaders) -> Data {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    var target = components?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = components?.percentEncodedQuery { target += "?" + query }
    var host = url.host ?? ""
    if host.contains(":") { host = "[\(host)]" }
    if let port = url.port { host += ":\(port)" }
    var head = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n"
    for field in fields { head += "\(field.name): \(field.value)\r\n" }
    head += "\r\n"
    return Data(head.utf8)
  }

  /// Reads the answer head from `channel`, at most `limit` bytes of it.
  ///
  /// - Throws: ``TransportFailure`` when the connection broke or the head is not HTTP/1.1.
  static func read(from channel: any WebSocketChannel, limit: Int) async throws(TransportFailure)
    -> WebSocketUpgradeHead
  {
    var bytes = Data()
    let end = Data("\r\n\r\n".utf8)
    while true {
      if let range = bytes.range(of: end) {
        return try parse(bytes[..<range.lowerBound], leftover: Data(bytes[range.upperBound...]))
      }
      guard bytes.count <= limit else {
        throw TransportFailure(
          kind: .responseTooLarge, detail: "the WebSocket's answer head passed \(limit) bytes")
      }
      guard let more = try await channel.read() else {
        throw TransportFailure(
          kind: .networkConnectionLost, detail: "the server closed before answering the upgrade")
      }
      bytes.append(more)
    }
  }

  private static func parse(_ head: Data, leftover: Data) throws(TransportFailure)
    -> WebSocketUpgradeHead
  {
    let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = lines.first?.split(separator: " ", maxSplits: 2) ?? []
    guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1])
    else {
      throw TransportFailure(
        kind: .badServerResponse, detail: "the WebSocket's answer did not start with HTTP/1.1")
    }
    var headers = HTTPHeaders()
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else {
        throw TransportFailure(
          kind: .badServerResponse, detail: "a header line of the WebSocket's answer had no colon")
      }
      headers.add(
        name: String(line[..<colon]),
        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return WebSocketUpgradeHead(status: status, headers: headers, leftover: leftover)
  }
}
