#if os(Linux)
  /// The status line and header fields of the final response, built from the lines libcurl's
  /// header callback delivers one by one.
  ///
  /// libcurl passes every response head it reads: interim `1xx` answers (`100 Continue`) and the
  /// final one. A new status line therefore starts over, so only the last head is kept.
  struct CurlResponseHead {
    private(set) var statusCode = 0
    private(set) var httpVersion = "HTTP/1.1"
    private(set) var headers = HTTPHeaders()
    private var fields: [HTTPHeaders.Field] = []

    /// The body length the server announced in `Content-Length`, if any.
    var announcedBodyLength: Int? {
      let field = headers.fields.last {
        $0.name.utf8.count == 14 && $0.name.lowercased() == "content-length"
      }
      return field.flatMap { Int($0.value) }
    }

    /// Takes one raw line, with or without its `CRLF`.
    ///
    /// - Returns: Whether the line was the blank line that completes the final (non-`1xx`) head.
    @discardableResult
    mutating func add(line bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      var end = bytes.count
      while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
        end -= 1
      }
      guard end > 0 else {
        // The blank line closing a head.
        headers = HTTPHeaders(fields)
        return statusCode >= 200
      }
      let line = UnsafeBufferPointer(rebasing: bytes[0..<end])
      if line.starts(with: "HTTP/".utf8) {
        startHead(statusLine: line)
      } else if Self.isBlank(line[0]) {
        // Obsolete line folding (RFC 9112 §5.2): the line continues the previous value.
        guard !fields.isEmpty else { return false }
        fields[fields.count - 1].value += " " + Self.trimmedText(line[...])
      } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        let name = Self.trimmedText(line[0..<colon])
        let value = Self.trimmedText(line[(colon + 1)...])
        if !name.isEmpty { fields.append(HTTPHeaders.Field(name: name, value: value)) }
      }
      return false
    }

    private mutating func startHead(statusLine line: UnsafeBufferPointer<UInt8>) {
      fields.removeAll(keepingCapacity: true)
      headers = HTTPHeaders()
      let parts = Self.text(line).split(separator: " ", maxSplits: 2)
      httpVersion = parts.first.map(String.init) ?? "HTTP/1.1"
      statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The bytes without surrounding blanks, as text: trimming bytes first spares building and
    /// re-slicing a `String` for every field.
    private static func trimmedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
      var start = bytes.startIndex
      var end = bytes.endIndex
      while start < end, isBlank(bytes[start]) { start += 1 }
      while end > start, isBlank(bytes[end - 1]) { end -= 1 }
      return text(UnsafeBufferPointer(rebasing: bytes.base[start..<end]))
    }

    /// Header bytes are ASCII in practice; anything else is kept as Latin-1 rather than lost.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      String(validating: bytes, as: UTF8.self)
        ?? String(bytes.lazy.map { Character(Unicode.Scalar($0)) })
    }
  }
#endif
