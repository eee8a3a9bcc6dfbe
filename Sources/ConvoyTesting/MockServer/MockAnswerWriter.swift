import Convoy
import Foundation

/// Writes one ``MockAnswer`` to a connection: informational heads, the head, the body with its
/// pacing, trailers, and whatever fault the answer acts out.
struct MockAnswerWriter {
  let descriptor: Int32
  /// Readable once the server stops; every pause ends early then.
  let wake: Int32
  /// Where the answer's bytes gather until a pause, a fault or the answer's end sends them.
  let output: MockOutput

  /// A writer to `descriptor` that tells `onSend` how many bytes each write sent.
  init(descriptor: Int32, wake: Int32, onSend: @escaping (Int) -> Void) {
    self.descriptor = descriptor
    self.wake = wake
    self.output = MockOutput(descriptor: descriptor, onSend: onSend)
  }

  /// What the connection should do after the answer.
  enum Ending {
    /// Read the next request.
    case keepAlive
    /// Close in order.
    case close
    /// Close with a TCP reset.
    case reset
  }

  func write(_ answer: MockAnswer, for request: RecordedRequest) -> Ending {
    let ending = gather(answer, for: request)
    // What a cut answer sent before its fault must reach the client before the close.
    return output.flush() || ending != .keepAlive ? ending : .close
  }

  /// Sends everything gathered so far, then waits for `duration` (see ``MockSocket/pause``).
  func pause(_ duration: Duration) -> Bool {
    guard duration > .zero else { return true }
    return output.flush() && MockSocket.pause(duration, wake: wake, connection: descriptor)
  }

  private func gather(_ answer: MockAnswer, for request: RecordedRequest) -> Ending {
    for head in answer.informational {
      var lines = "HTTP/1.1 \(head.status) \(MockAnswerWriter.reason(for: head.status))\r\n"
      for field in head.headers { lines += "\(field.name): \(field.value)\r\n" }
      guard output.write(Array((lines + "\r\n").utf8)) else { return .close }
    }
    guard pause(answer.headDelay) else {
      return .close
    }
    switch answer.fault {
    case .hangUpBeforeHead: return .close
    case .resetBeforeHead: return .reset
    default: break
    }
    let sendsBody = request.method != "HEAD" && answer.status != 204 && answer.status != 304
    let framing = Framing(answer, sendsBody: sendsBody)
    guard output.write(Array(head(for: answer, framing: framing).utf8)) else {
      return .close
    }
    if answer.fault == .hangUpAfterHead { return .close }
    guard sendsBody else { return ending(for: answer, request: request) }
    guard pause(answer.bodyDelay) else {
      return .close
    }
    var body = BodySender(writer: self, answer: answer, chunked: framing == .chunked)
    if let cut = body.sendAll() { return cut }
    if framing == .chunked {
      if answer.fault == .omitFinalChunk { return .close }
      var end = "0\r\n"
      for field in answer.trailers { end += "\(field.name): \(field.value)\r\n" }
      guard output.write(Array((end + "\r\n").utf8)) else { return .close }
    }
    return ending(for: answer, request: request)
  }

  private func ending(for answer: MockAnswer, request: RecordedRequest) -> Ending {
    let asked = request.headers["Connection"]?.lowercased() == "close"
    return answer.closesConnection || asked || request.version == "HTTP/1.0" ? .close : .keepAlive
  }

  /// How the body is delimited on the wire.
  enum Framing: Equatable {
    case none
    case length(Int)
    case chunked
    /// The answer's own headers say how (or `MockHead.raw` does): the server adds nothing.
    case asGiven

    init(_ answer: MockAnswer, sendsBody: Bool) {
      if case .raw = answer.head {
        self = .asGiven
      } else if answer.headers.contains("Content-Length")
        || answer.headers.contains("Transfer-Encoding")
      {
        self = .asGiven
      } else if !answer.trailers.isEmpty {
        self = .chunked
      } else {
        switch answer.body {
        case .empty, .bytes: self = .length(answer.body.knownBytes?.count ?? 0)
        case .file(let url):
          let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int
          self = .length(size ?? 0)
        case .chunks, .sequence, .repeated: self = .chunked
        }
      }
      if self == .chunked, !sendsBody { self = .none }
    }
  }

  private func head(for answer: MockAnswer, framing: Framing) -> String {
    if case .raw(let text) = answer.head { return text }
    let reason = answer.reason ?? MockAnswerWriter.reason(for: answer.status)
    var lines: String
    switch answer.head {
    case .garbageStatusLine: lines = "THIS IS NOT HTTP AT ALL\r\n"
    case .wrongCaseProtocolName: lines = "Http/1.1 \(answer.status) \(reason)\r\n"
    case .noReasonPhrase: lines = "HTTP/1.1 \(answer.status)\r\n"
    default: lines = "HTTP/1.1 \(answer.status) \(reason)\r\n"
    }
    for field in answer.headers { lines += "\(field.name): \(field.value)\r\n" }
    if answer.head == .headerWithoutColon { lines += "this line has no colon\r\n" }
    switch framing {
    case .length(let count):
      let value =
        answer.head == .conflictingContentLength ? "\(count + 6), \(count)" : String(count)
      lines += "Content-Length: \(value)\r\n"
    case .chunked:
      lines += "Transfer-Encoding: chunked\r\n"
      if !answer.trailers.isEmpty {
        lines += "Trailer: \(answer.trailers.uniqueNames.joined(separator: ", "))\r\n"
      }
    case .none, .asGiven: break
    }
    if answer.closesConnection && !answer.headers.contains("Connection") {
      lines += "Connection: close\r\n"
    }
    return lines + "\r\n"
  }

  /// The standard reason phrase for `status`, or `Status` for one without a common phrase.
  static func reason(for status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 101: "Switching Protocols"
    case 103: "Early Hints"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 206: "Partial Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 407: "Proxy Authentication Required"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 410: "Gone"
    case 412: "Precondition Failed"
    case 413: "Content Too Large"
    case 416: "Range Not Satisfiable"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: "Status"
    }
  }
}

/// Sends a body's bytes with the answer's pacing, counting them for byte-counted faults.
private struct BodySender {
  let writer: MockAnswerWriter
  let answer: MockAnswer
  let chunked: Bool
  var sent = 0
  var stalled = false

  init(writer: MockAnswerWriter, answer: MockAnswer, chunked: Bool) {
    self.writer = writer
    self.answer = answer
    self.chunked = chunked
  }

  /// Sends the whole body; the ending to use at once when a fault or the peer cut it short.
  mutating func sendAll() -> MockAnswerWriter.Ending? {
    switch answer.body {
    case .empty:
      return send(Data())
    case .bytes(let data):
      return send(data)
    case .chunks(let chunks):
      for chunk in chunks {
        guard writer.pause(chunk.delay) else {
          return .close
        }
        if let cut = send(chunk.data) { return cut }
      }
      return nil
    case .file(let url):
      guard let handle = try? FileHandle(forReadingFrom: url) else { return .close }
      defer { try? handle.close() }
      while let piece = try? handle.read(upToCount: 64 * 1024), !piece.isEmpty {
        if let cut = send(piece) { return cut }
      }
      return nil
    case .repeated(let piece, let count):
      for _ in 0..<max(0, count) {
        if let cut = send(piece) { return cut }
      }
      return nil
    case .sequence(let source):
      let iterator = source.makeIterator()
      // The next piece may be long in coming: what came before it goes to the client now.
      while writer.output.flush() {
        guard let piece = iterator.waitForNext() else { return nil }
        if let cut = send(piece) { return cut }
      }
      return .close
    }
  }

  /// Sends one piece (one chunk when chunked), in throttled slices, acting out a byte-counted
  /// fault when its count falls inside the piece.
  private mutating func send(_ piece: Data) -> MockAnswerWriter.Ending? {
    var bytes = [UInt8](piece)
    var cut: MockAnswerWriter.Ending?
    var stallAfter: Duration?
    switch answer.fault {
    case .hangUpAfterBodyBytes(let limit) where sent + bytes.count >= limit:
      bytes = Array(bytes.prefix(max(0, limit - sent)))
      cut = .close
    case .resetAfterBodyBytes(let limit) where sent + bytes.count >= limit:
      bytes = Array(bytes.prefix(max(0, limit - sent)))
      cut = .reset
    default: break
    }
    if case .stall(let limit, let duration) = answer.fault, !stalled, sent + bytes.count >= limit {
      // The piece goes in two parts with the stall between them.
      let first = Array(bytes.prefix(max(0, limit - sent)))
      let rest = Array(bytes.dropFirst(first.count))
      stalled = true
      if let ending = sendFramed(first) { return ending }
      stallAfter = duration
      bytes = rest
    }
    if let stallAfter,
      !writer.pause(stallAfter)
    {
      return .close
    }
    if let ending = sendFramed(bytes) { return ending }
    return cut
  }

  /// One chunk (or plain bytes), throttled; an empty piece sends nothing.
  private mutating func sendFramed(_ bytes: [UInt8]) -> MockAnswerWriter.Ending? {
    guard !bytes.isEmpty else { return nil }
    if chunked {
      guard
        writer.output.write(Array((String(bytes.count, radix: 16) + "\r\n").utf8))
      else { return .close }
    }
    let slice = answer.throttle?.bytes ?? bytes.count
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + slice)
      guard writer.output.write(bytes[offset..<end]) else { return .close }
      sent += end - offset
      offset = end
      if let throttle = answer.throttle {
        guard writer.pause(throttle.period)
        else { return .close }
      }
    }
    if chunked {
      guard writer.output.write(Array("\r\n".utf8)) else { return .close }
    }
    return nil
  }
}
