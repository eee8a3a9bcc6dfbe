/// A scalar as read: its value, the text a key made of it has, and how it was written.
struct ParsedScalar {
  var value: YAMLValue
  var keyText: String
  var isQuoted: Bool
  var isMultiline: Bool

  /// The scalar as a mapping key.
  var key: MappingKey { MappingKey(text: keyText, isMerge: !isQuoted && keyText == "<<") }
}

/// A mapping key as written: its text, and whether it is the `<<` merge key, which only a plain
/// `<<` is (a quoted `"<<"` is a key like any other).
struct MappingKey {
  var text: String
  var isMerge: Bool
}

extension YAMLParser {
  /// Parses a quoted or plain scalar.
  mutating func parseScalar(parentIndent: Int, inFlow: Bool) throws(YAMLError) -> ParsedScalar {
    nodeCount += 1
    let startLine = lineStart
    switch peek() {
    case .doubleQuote:
      let text = try parseDoubleQuoted()
      return ParsedScalar(
        value: .string(text), keyText: text, isQuoted: true, isMultiline: lineStart != startLine)
    case .singleQuote:
      let text = try parseSingleQuoted()
      return ParsedScalar(
        value: .string(text), keyText: text, isQuoted: true, isMultiline: lineStart != startLine)
    default:
      let (text, multiline) = try parsePlain(parentIndent: parentIndent, inFlow: inFlow)
      return ParsedScalar(
        value: ScalarResolution.resolve(text), keyText: text, isQuoted: false,
        isMultiline: multiline)
    }
  }

  /// Parses a plain (unquoted) scalar, folding continuation lines into spaces (or into line
  /// breaks, one per empty line between them).
  ///
  /// In a block, a continuation line must be indented more than `parentIndent`; in a flow
  /// collection, indentation does not matter. A comment ends the scalar.
  private mutating func parsePlain(
    parentIndent: Int, inFlow: Bool
  ) throws(YAMLError) -> (String, Bool) {
    guard let first = peek(), canStartPlain(first, inFlow: inFlow) else {
      throw error(isAtEnd ? .expectedValue : .unexpectedContent(describeCurrent()))
    }
    var buffer: [UInt8] = []
    var multiline = false
    while true {
      let segmentStart = index
      var segmentEnd = index
      while let byte = peek(), byte != .newline {
        if byte == .colon {
          let next = peek(1)
          if next == nil || isBlank(at: 1) || (inFlow && next!.isFlowIndicator) { break }
        } else if byte == .hash, index > segmentStart,
          bytes[index - 1] == .space || bytes[index - 1] == .tab
        {
          break
        } else if inFlow, byte.isFlowIndicator {
          break
        }
        advance()
        if byte != .space, byte != .tab { segmentEnd = index }
      }
      buffer.append(contentsOf: bytes[segmentStart..<segmentEnd])
      guard peek() == .newline, let (resume, emptyLines) = continuation(parentIndent, inFlow)
      else { break }
      if emptyLines == 0 {
        buffer.append(.space)
      } else {
        buffer.append(contentsOf: repeatElement(.newline, count: emptyLines))
      }
      advance(resume - index)
      multiline = true
    }
    return (String(decoding: buffer, as: UTF8.self), multiline)
  }

  private func canStartPlain(_ byte: UInt8, inFlow: Bool) -> Bool {
    switch byte {
    case .comma, .openBracket, .closeBracket, .openBrace, .closeBrace, .hash, .ampersand,
      .asterisk, .exclamation, .pipe, .greaterThan, .singleQuote, .doubleQuote, .percent, .at,
      .backtick, .newline, .space, .tab:
      return false
    case .hyphen, .questionMark, .colon:
      guard let next = peek(1) else { return false }
      return !isBlank(at: 1) && !(inFlow && next.isFlowIndicator)
    default:
      return true
    }
  }

  /// Where a plain scalar continues after the line break at the current position, and how many
  /// empty lines come first; `nil` when it does not continue.
  private func continuation(_ parentIndent: Int, _ inFlow: Bool) -> (Int, Int)? {
    var probe = index
    var emptyLines = -1
    while probe < bytes.count, bytes[probe] == .newline {
      probe += 1
      emptyLines += 1
      let lineBegin = probe
      while probe < bytes.count, bytes[probe] == .space || bytes[probe] == .tab { probe += 1 }
      guard probe < bytes.count else { return nil }
      if bytes[probe] == .newline { continue }
      let indent = probe - lineBegin
      let byte = bytes[probe]
      if byte == .hash { return nil }
      if !inFlow, indent <= parentIndent { return nil }
      if inFlow, byte.isFlowIndicator { return nil }
      if byte == .colon,
        probe + 1 >= bytes.count || [.space, .tab, .newline].contains(bytes[probe + 1])
      {
        return nil
      }
      if indent == 0, probe + 3 <= bytes.count,
        bytes[probe..<probe + 3].elementsEqual([byte, byte, byte]),
        byte == .hyphen || byte == .period,
        probe + 3 == bytes.count || [.space, .tab, .newline].contains(bytes[probe + 3])
      {
        return nil
      }
      return (probe, emptyLines)
    }
    return nil
  }

  /// Parses `'…'`: `''` is a quote, line breaks fold as in plain scalars.
  private mutating func parseSingleQuoted() throws(YAMLError) -> String {
    let start = index
    advance()
    var buffer: [UInt8] = []
    while true {
      guard let byte = peek() else { throw error(.unterminatedScalar, at: start) }
      if byte == .singleQuote {
        if peek(1) == .singleQuote {
          buffer.append(.singleQuote)
          advance(2)
          continue
        }
        advance()
        return String(decoding: buffer, as: UTF8.self)
      }
      if byte == .newline {
        foldQuotedLineBreak(into: &buffer, keeping: 0)
        continue
      }
      buffer.append(byte)
      advance()
    }
  }

  /// Parses `"…"` with YAML's escapes (JSON's among them, `\u` surrogate pairs included).
  private mutating func parseDoubleQuoted() throws(YAMLError) -> String {
    let start = index
    advance()
    var buffer: [UInt8] = []
    // Escaped characters (such as "\t" before a line break) are content, never trimmed.
    var keep = 0
    while true {
      guard let byte = peek() else { throw error(.unterminatedScalar, at: start) }
      switch byte {
      case .doubleQuote:
        advance()
        return String(decoding: buffer, as: UTF8.self)
      case .newline:
        foldQuotedLineBreak(into: &buffer, keeping: keep)
      case .backslash:
        if peek(1) == .newline {
          // An escaped line break joins the lines without a space.
          advance(2)
          while let next = peek(), next == .space || next == .tab { advance() }
          keep = buffer.count
          continue
        }
        let scalar = try parseEscape()
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        keep = buffer.count
      default:
        buffer.append(byte)
        advance()
      }
    }
  }

  /// At a line break inside a quoted scalar: trims the line's trailing blanks, skips the next
  /// lines' leading blanks, and writes a space, or one line break per empty line.
  private mutating func foldQuotedLineBreak(into buffer: inout [UInt8], keeping keep: Int) {
    while buffer.count > keep, buffer.last == .space || buffer.last == .tab { buffer.removeLast() }
    var emptyLines = 0
    advance()
    while true {
      while let next = peek(), next == .space || next == .tab { advance() }
      guard peek() == .newline else { break }
      emptyLines += 1
      advance()
    }
    if emptyLines == 0 {
      buffer.append(.space)
    } else {
      buffer.append(contentsOf: repeatElement(.newline, count: emptyLines))
    }
  }

  /// Parses one escape at a backslash.
  private mutating func parseEscape() throws(YAMLError) -> Unicode.Scalar {
    let start = index
    advance()
    guard let code = peek() else { throw error(.unterminatedScalar) }
    advance()
    let simple: [UInt8: UInt32] = [
      UInt8(ascii: "0"): 0, UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "t"): 9,
      .tab: 9, UInt8(ascii: "n"): 10, UInt8(ascii: "v"): 11, UInt8(ascii: "f"): 12,
      UInt8(ascii: "r"): 13, UInt8(ascii: "e"): 27, .space: 32, .doubleQuote: 34,
      UInt8(ascii: "/"): 47, .backslash: 92, UInt8(ascii: "N"): 0x85, UInt8(ascii: "_"): 0xA0,
      UInt8(ascii: "L"): 0x2028, UInt8(ascii: "P"): 0x2029,
    ]
    if let value = simple[code] { return Unicode.Scalar(value)! }
    let digits: Int
    switch code {
    case UInt8(ascii: "x"): digits = 2
    case UInt8(ascii: "u"): digits = 4
    case UInt8(ascii: "U"): digits = 8
    default: throw error(.invalidEscape(text(index - 1..<index)), at: start)
    }
    var value = try readHex(digits, escapeStart: start)
    if code == UInt8(ascii: "u"), (0xD800..<0xDC00).contains(value) {
      // JSON writes characters outside the BMP as a UTF-16 surrogate pair.
      guard peek() == .backslash, peek(1) == UInt8(ascii: "u") else {
        throw error(.invalidEscape(text(start + 1..<index)), at: start)
      }
      advance(2)
      let low = try readHex(4, escapeStart: start)
      guard (0xDC00..<0xE000).contains(low) else {
        throw error(.invalidEscape(text(start + 1..<index)), at: start)
      }
      value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(value) else {
      throw error(.invalidEscape(text(start + 1..<index)), at: start)
    }
    return scalar
  }

  private mutating func readHex(_ digits: Int, escapeStart: Int) throws(YAMLError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<digits {
      guard let byte = peek(), let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
        throw error(.invalidEscape(text(escapeStart + 1..<index)), at: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      advance()
    }
    return value
  }
}
