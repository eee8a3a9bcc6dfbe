/// The recursive-descent parser behind ``YAML/parse(_:limits:)-(String,_)``.
///
/// It walks UTF-8 bytes; every syntax character is ASCII, so columns counted in bytes equal
/// columns in characters wherever indentation matters, and error positions are converted to
/// characters only when an error is thrown. Block structure follows YAML's indentation rules:
/// a node belongs to its parent while it is indented more than the parent (a sequence may sit at
/// its mapping key's indentation).
struct YAMLParser {
  let bytes: [UInt8]
  let limits: YAMLLimits
  var index = 0
  /// Where the current line starts, so `index - lineStart` is the column (from 0).
  var lineStart = 0
  var depth = 0
  /// Nodes built so far, counting each alias as the subtree it repeats; an anchor's subtree size
  /// is the difference across its node.
  var nodeCount = 0
  var aliasedNodes = 0
  var anchors: [String: (value: YAMLValue, size: Int)] = [:]

  init(bytes: [UInt8], limits: YAMLLimits) {
    var normalized = bytes
    if normalized.starts(with: [0xEF, 0xBB, 0xBF]) { normalized.removeFirst(3) }
    // Line breaks are "\n" from here on: "\r\n" and a lone "\r" both become one.
    if normalized.contains(.carriageReturn) {
      var result: [UInt8] = []
      result.reserveCapacity(normalized.count)
      var position = 0
      while position < normalized.count {
        let byte = normalized[position]
        if byte == .carriageReturn {
          result.append(.newline)
          if position + 1 < normalized.count, normalized[position + 1] == .newline { position += 1 }
        } else {
          result.append(byte)
        }
        position += 1
      }
      normalized = result
    }
    self.bytes = normalized
    self.limits = limits
  }

  // MARK: Reading

  var isAtEnd: Bool { index >= bytes.count }
  var column: Int { index - lineStart }

  func peek(_ offset: Int = 0) -> UInt8? {
    let position = index + offset
    return position < bytes.count ? bytes[position] : nil
  }

  /// Whether the byte at `offset` is a space, tab, line break or the end of input.
  func isBlank(at offset: Int = 0) -> Bool {
    guard let byte = peek(offset) else { return true }
    return byte == .space || byte == .tab || byte == .newline
  }

  mutating func advance(_ count: Int = 1) {
    for _ in 0..<count where index < bytes.count {
      if bytes[index] == .newline { lineStart = index + 1 }
      index += 1
    }
  }

  /// Whether a `---` or `...` marker starts here, at the start of a line.
  var isAtDocumentMarker: Bool {
    guard column == 0, index + 2 < bytes.count else { return false }
    let first = bytes[index]
    guard first == .hyphen || first == .period else { return false }
    return bytes[index + 1] == first && bytes[index + 2] == first && isBlank(at: 3)
  }

  /// Skips spaces, comments and line breaks. Returns whether a line break was passed.
  ///
  /// Outside flow collections a tab before a line's first content would be read as indentation
  /// by some tools and not by others, so it is an error here.
  @discardableResult
  mutating func skipSeparation(inFlow: Bool = false) throws(YAMLError) -> Bool {
    var crossedLine = false
    while let byte = peek() {
      if byte == .space {
        advance()
      } else if byte == .tab {
        if !inFlow, index == lineStart || crossedLine, lineHasContent(afterTabAt: index) {
          throw error(.tabIndentation)
        }
        advance()
      } else if byte == .hash, index == lineStart || isSpace(bytes[index - 1]) {
        while let next = peek(), next != .newline { advance() }
      } else if byte == .newline {
        advance()
        crossedLine = true
      } else {
        break
      }
    }
    return crossedLine
  }

  private func isSpace(_ byte: UInt8) -> Bool { byte == .space || byte == .tab }

  /// Whether the tab at `position` is followed, on its line, by something other than blanks or a
  /// comment (then the tab would be indentation).
  private func lineHasContent(afterTabAt position: Int) -> Bool {
    guard lineStart == position || bytes[lineStart..<position].allSatisfy(isSpace) else {
      return false
    }
    var cursor = position
    while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
    return cursor < bytes.count && bytes[cursor] != .newline && bytes[cursor] != .hash
  }

  /// Skips blanks and a comment up to the line break. Returns whether the line has nothing else.
  mutating func restOfLineIsEmpty() -> Bool {
    while let byte = peek(), isSpace(byte) { advance() }
    if peek() == .hash {
      while let next = peek(), next != .newline { advance() }
    }
    return isAtEnd || peek() == .newline
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  // MARK: Errors

  /// An error at the current position.
  func error(_ reason: YAMLError.Reason) -> YAMLError {
    error(reason, at: index)
  }

  /// An error at `position`, its column counted in characters.
  func error(_ reason: YAMLError.Reason, at position: Int) -> YAMLError {
    let clamped = min(position, bytes.count)
    var line = 1
    var start = 0
    for offset in 0..<clamped where bytes[offset] == .newline {
      line += 1
      start = offset + 1
    }
    let column = String(decoding: bytes[start..<clamped], as: UTF8.self).unicodeScalars.count + 1
    return YAMLError(reason, line: line, column: column)
  }

  /// A short description of what is at the current position, for error messages.
  func describeCurrent() -> String {
    guard let byte = peek() else { return "end of document" }
    if byte == .newline { return "line break" }
    var end = index
    while end < bytes.count, end - index < 20, bytes[end] != .newline { end += 1 }
    return "\"\(text(index..<end))\""
  }

  // MARK: Limits

  mutating func enterCollection(at position: Int) throws(YAMLError) {
    depth += 1
    if depth > limits.maximumDepth {
      throw error(.nestingTooDeep(limit: limits.maximumDepth), at: position)
    }
  }

  mutating func leaveCollection() { depth -= 1 }
}

extension UInt8 {
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let hash = UInt8(ascii: "#")
  static let hyphen = UInt8(ascii: "-")
  static let period = UInt8(ascii: ".")
  static let colon = UInt8(ascii: ":")
  static let comma = UInt8(ascii: ",")
  static let questionMark = UInt8(ascii: "?")
  static let ampersand = UInt8(ascii: "&")
  static let asterisk = UInt8(ascii: "*")
  static let exclamation = UInt8(ascii: "!")
  static let pipe = UInt8(ascii: "|")
  static let greaterThan = UInt8(ascii: ">")
  static let singleQuote = UInt8(ascii: "'")
  static let doubleQuote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let percent = UInt8(ascii: "%")
  static let at = UInt8(ascii: "@")
  static let backtick = UInt8(ascii: "`")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let plus = UInt8(ascii: "+")

  /// `,`, `[`, `]`, `{` or `}`: the characters that end a plain scalar inside a flow collection.
  var isFlowIndicator: Bool {
    self == .comma || self == .openBracket || self == .closeBracket || self == .openBrace
      || self == .closeBrace
  }
}
