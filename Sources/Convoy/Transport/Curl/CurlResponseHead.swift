#if os(Linux)
  /// The status line and header fields of the final response, built from the lines libcurl's
  /// header callback delivers one by one.
  ///
  /// libcurl passes every response head it reads: interim `1xx` answers (`100 Continue`) and the
  /// final one. A new status line therefore starts over, so only the last head is kept.
  ///
  /// Lines after the final head are the trailer fields that follow a chunked (or HTTP/2) body:
  /// they go to ``trailers``, never into the head.
  ///
  /// A head that passes ``ResponseLimits/maximumHeaderFieldCount`` or
  /// ``ResponseLimits/maximumHeadSize`` sets ``exceededLimit`` and keeps nothing more: the
  /// transfer stops there. Every head counts on its own, interim ones included.
  struct CurlResponseHead {
    private(set) var statusCode = 0
    private(set) var httpVersion = "HTTP/1.1"
    private(set) var headers = HTTPHeaders()
    /// The trailer fields after the body, once the final head is complete.
    private(set) var trailers = HTTPHeaders()
    private var fields: [HTTPHeaders.Field] = []
    /// Whether the final (non-`1xx`) head is complete: what follows are trailers.
    private var isFinalHeadComplete = false
    private let limits: ResponseLimits
    /// The bytes of the head being read, line ends included.
    private var headSize = 0
    /// Why the head was refused, once it passed a limit.
    private(set) var exceededLimit: TransportFailure?

    init(limits: ResponseLimits = ResponseLimits()) {
      self.limits = limits
    }

    /// The body length the server announced in `Content-Length`, if any.
    var announcedBodyLength: Int? {
      let field = headers.fields.last {
        $0.name.utf8.count == 14 && $0.name.lowercased() == "content-length"
      }
      return field.flatMap { Int($0.value) }
    }

    /// Why the final head's framing cannot be trusted, or `nil`: see ``ContentLengthField``.
    var framingProblem: String? {
      let lengths = headers.fields.filter {
        $0.name.utf8.count == 14 && $0.name.lowercased() == "content-length"
      }
      guard !lengths.isEmpty else { return nil }
      return ContentLengthField.problem(in: lengths.map(\.value))
    }

    /// Takes one raw line, with or without its `CRLF`.
    ///
    /// - Returns: Whether the line was the blank line that completes the final (non-`1xx`) head.
    @discardableResult
    mutating func add(line bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard exceededLimit == nil else { return false }
      if isFinalHeadComplete {
        addTrailer(line: bytes)
        return false
      }
      if Self.isStatusLine(bytes) { headSize = 0 }
      headSize += bytes.count
      guard headSize <= limits.maximumHeadSize else {
        exceededLimit = limits.failure("maximumHeadSize", limits.maximumHeadSize)
        return false
      }
      var end = bytes.count
      while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
        end -= 1
      }
      guard end > 0 else {
        // The blank line closing a head.
        headers = HTTPHeaders(fields)
        isFinalHeadComplete = statusCode >= 200
        if isFinalHeadComplete {
          fields.removeAll()
          headSize = 0
        }
        return isFinalHeadComplete
      }
      let line = UnsafeBufferPointer(rebasing: bytes[0..<end])
      if Self.isStatusLine(line) {
        startHead(statusLine: line)
      } else if Self.isBlank(line[0]) {
        // Obsolete line folding (RFC 9112 §5.2): the line continues the previous value.
        guard !fields.isEmpty else { return false }
        fields[fields.count - 1].value += " " + Self.trimmedText(line[...])
      } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        let name = Self.trimmedText(line[0..<colon])
        let value = Self.trimmedText(line[(colon + 1)...])
        guard !name.isEmpty else { return false }
        guard fields.count < limits.maximumHeaderFieldCount else {
          exceededLimit = limits.failure("maximumHeaderFieldCount", limits.maximumHeaderFieldCount)
          return false
        }
        fields.append(HTTPHeaders.Field(name: name, value: value))
      }
      return false
    }

    /// Takes a trailer line, bounded by the same limits as a head; the blank line ending the
    /// trailers is not kept.
    private mutating func addTrailer(line bytes: UnsafeBufferPointer<UInt8>) {
      headSize += bytes.count
      guard headSize <= limits.maximumHeadSize else {
        exceededLimit = limits.failure("maximumHeadSize", limits.maximumHeadSize)
        return
      }
      var end = bytes.count
      while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
        end -= 1
      }
      let line = UnsafeBufferPointer(rebasing: bytes[0..<end])
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
      let name = Self.trimmedText(line[0..<colon])
      guard !name.isEmpty else { return }
      guard trailers.fields.count < limits.maximumHeaderFieldCount else {
        exceededLimit = limits.failure("maximumHeaderFieldCount", limits.maximumHeaderFieldCount)
        return
      }
      trailers.add(name: name, value: Self.trimmedText(line[(colon + 1)...]))
    }

    /// Reads `HTTP/1.1 200 OK` from the bytes, without a `String` for the line: the version up
    /// to the first space, then the status, which must be all digits (anything else leaves 0,
    /// which the transfer reports as a broken answer).
    private mutating func startHead(statusLine line: UnsafeBufferPointer<UInt8>) {
      fields.removeAll(keepingCapacity: true)
      headers = HTTPHeaders()
      let space = UInt8(ascii: " ")
      let versionEnd = line.firstIndex(of: space) ?? line.endIndex
      httpVersion = Self.version(UnsafeBufferPointer(rebasing: line[..<versionEnd]))
      var index = versionEnd
      while index < line.endIndex, line[index] == space { index += 1 }
      var status = 0
      var digits = 0
      while index < line.endIndex, line[index] != space {
        let digit = Int(line[index]) - Int(UInt8(ascii: "0"))
        guard (0...9).contains(digit), digits < 9 else {
          statusCode = 0
          return
        }
        status = status * 10 + digit
        digits += 1
        index += 1
      }
      statusCode = status
    }

    /// The versions servers send, as constants; anything else as it was written.
    private static func version(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      for known in ["HTTP/1.1", "HTTP/2", "HTTP/1.0", "HTTP/2.0", "HTTP/3"]
      where bytes.elementsEqual(known.utf8) {
        return known
      }
      return text(bytes)
    }

    /// Whether the line starts with `HTTP/`, byte by byte: every header line passes here, and
    /// the generic `starts(with:)` over a string's UTF-8 view is far slower.
    private static func isStatusLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      bytes.count >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T")
        && bytes[2] == UInt8(ascii: "T") && bytes[3] == UInt8(ascii: "P")
        && bytes[4] == UInt8(ascii: "/")
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
    /// ASCII, the usual case, skips validation: `String(validating:)` was a generic,
    /// unspecialized call per field.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
      return String(validating: bytes, as: UTF8.self)
        ?? String(bytes.lazy.map { Character(Unicode.Scalar($0)) })
    }
  }
#endif
