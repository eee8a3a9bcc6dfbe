import Convoy
import Foundation

/// Reads HTTP/1.1 requests from one connection: the head, then a body framed by
/// `Content-Length` or chunked.
///
/// Bounded so that a broken client cannot grow the test process without limit: a head of at most
/// 64 KiB, and a body of at most ``MockServer/maximumRecordedBodySize``.
struct MockRequestReader {
  let descriptor: Int32
  let wake: Int32
  /// Bytes read past the previous request (a pipelining client's next request).
  private var buffered: [UInt8] = []

  init(descriptor: Int32, wake: Int32) {
    self.descriptor = descriptor
    self.wake = wake
  }

  /// A request head as read off the wire.
  struct Head {
    var method: String
    var target: String
    var version: String
    var headers: HTTPHeaders
  }

  /// Why reading stopped.
  enum Failure: Error {
    /// The client closed or the server is stopping.
    case closed
    /// The head was not HTTP or too large: the server answers 400 and closes.
    case malformed(String)
  }

  /// The next request's head, or `nil` when the client closed the connection between requests.
  mutating func readHead() throws(Failure) -> Head? {
    var end: Int?
    while true {
      end = Self.endOfHead(in: buffered)
      if end != nil { break }
      guard buffered.count < 64 * 1024 else { throw .malformed("a request head over 64 KiB") }
      guard MockSocket.waitReadable(descriptor, wake: wake, timeout: nil) else { throw .closed }
      let bytes = MockSocket.receive(descriptor)
      if bytes.isEmpty {
        if buffered.isEmpty { return nil }
        throw .closed
      }
      buffered += bytes
    }
    guard let end else { return nil }
    let text = String(decoding: buffered[..<end], as: UTF8.self)
    buffered.removeFirst(end + 4)
    var lines = text.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/") else {
      throw .malformed("a request line that is not `METHOD target HTTP/x.y`")
    }
    var headers = HTTPHeaders()
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { throw .malformed("a header without colon") }
      headers.add(
        name: String(line[..<colon]),
        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return Head(
      method: String(requestLine[0]), target: String(requestLine[1]),
      version: String(requestLine[2]), headers: headers)
  }

  /// A request body as read off the wire.
  struct Body {
    var data = Data()
    /// Whether the whole body arrived.
    var isComplete = false
    /// The trailer fields after a chunked body.
    var trailers = HTTPHeaders()
  }

  /// The body that `head` announces, stopping after `limit` bytes when given (a fault).
  mutating func readBody(of head: Head, stoppingAfter limit: Int? = nil) -> Body {
    if head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
      return readChunked(stoppingAfter: limit)
    }
    let length = Int(head.headers["Content-Length"] ?? "") ?? 0
    guard let bytes = read(count: min(length, limit ?? length)) else { return Body() }
    return Body(data: Data(bytes), isComplete: bytes.count == length)
  }

  private mutating func readChunked(stoppingAfter limit: Int?) -> Body {
    var body = Body()
    while true {
      guard let line = readLine(), let size = Int(line.prefix { $0 != ";" }, radix: 16) else {
        return body
      }
      if size == 0 {
        // Trailer fields, up to the empty line.
        while let trailer = readLine(), !trailer.isEmpty {
          guard let colon = trailer.firstIndex(of: ":") else { return body }
          body.trailers.add(
            name: String(trailer[..<colon]),
            value: trailer[trailer.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body.isComplete = true
        return body
      }
      let wanted = limit.map { min(size, max(0, $0 - body.data.count)) } ?? size
      guard let bytes = read(count: wanted) else { return body }
      body.data.append(contentsOf: bytes)
      if wanted < size { return body }
      guard readLine() == "" else { return body }
      guard body.data.count <= MockServer.maximumRecordedBodySize else { return body }
    }
  }

  private mutating func readLine() -> String? {
    while true {
      if let index = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        var line = Array(buffered[..<index])
        buffered.removeFirst(index + 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard buffered.count < 64 * 1024, fill() else { return nil }
    }
  }

  /// The bytes read past the last request, handed over: a WebSocket's first frames.
  mutating func takeBuffered() -> [UInt8] {
    defer { buffered = [] }
    return buffered
  }

  private mutating func read(count: Int) -> [UInt8]? {
    guard count <= MockServer.maximumRecordedBodySize else { return nil }
    while buffered.count < count {
      guard fill() else { return nil }
    }
    let bytes = Array(buffered[..<count])
    buffered.removeFirst(count)
    return bytes
  }

  private mutating func fill() -> Bool {
    guard MockSocket.waitReadable(descriptor, wake: wake, timeout: nil) else { return false }
    let bytes = MockSocket.receive(descriptor)
    buffered += bytes
    return !bytes.isEmpty
  }

  private static func endOfHead(in bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index
    }
    return nil
  }
}
