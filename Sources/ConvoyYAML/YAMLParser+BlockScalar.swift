extension YAMLParser {
  private enum Chomping {
    case strip
    case clip
    case keep
  }

  /// Parses a literal (`|`) or folded (`>`) block scalar from its header to its last line.
  ///
  /// Content is indented more than `parentIndent`: by the header's indentation indicator, or as
  /// much as the first non-empty line.
  mutating func parseBlockScalar(parentIndent: Int) throws(YAMLError) -> YAMLValue {
    nodeCount += 1
    let folded = peek() == .greaterThan
    advance()
    var chomping: Chomping?
    var indicator: Int?
    for _ in 0..<2 {
      guard let byte = peek() else { break }
      if chomping == nil, byte == .plus || byte == .hyphen {
        chomping = byte == .plus ? .keep : .strip
      } else if indicator == nil, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) {
        indicator = Int(byte - UInt8(ascii: "0"))
      } else {
        break
      }
      advance()
    }
    guard isBlank(), restOfLineIsEmpty() else { throw error(.invalidBlockScalarHeader) }
    if peek() == .newline { advance() }

    var contentIndent = indicator.map { parentIndent >= 0 ? parentIndent + $0 : $0 }
    // Content lines without their indentation; an empty slice is an empty line.
    var lines: [ArraySlice<UInt8>] = []
    var lastLineHasBreak = false
    while !isAtEnd {
      var spaces = 0
      while peek(spaces) == .space { spaces += 1 }
      let afterSpaces = index + spaces
      if afterSpaces >= bytes.count || bytes[afterSpaces] == .newline {
        if let contentIndent, spaces > contentIndent {
          lines.append(bytes[(index + contentIndent)..<afterSpaces])
        } else {
          lines.append([])
        }
        advance(spaces)
        lastLineHasBreak = peek() == .newline
        advance()
        continue
      }
      if contentIndent == nil {
        guard spaces > parentIndent else { break }
        contentIndent = spaces
      }
      guard let indent = contentIndent, spaces >= indent, !(spaces == 0 && isAtDocumentMarker)
      else { break }
      var end = afterSpaces
      while end < bytes.count, bytes[end] != .newline { end += 1 }
      lines.append(bytes[(index + indent)..<end])
      advance(end - index)
      lastLineHasBreak = peek() == .newline
      advance()
    }

    let lastContent = lines.lastIndex { !$0.isEmpty }
    var result: [UInt8] = []
    if let lastContent {
      let body = lines[...lastContent]
      result = folded ? fold(body) : Array(body.joined(separator: [.newline]))
    }
    let trailingBreaks: Int
    if let lastContent {
      let emptyAfter = lines.count - lastContent - 1
      trailingBreaks = emptyAfter + (emptyAfter > 0 || lastLineHasBreak ? 1 : 0)
    } else {
      trailingBreaks = lines.count
    }
    switch chomping ?? .clip {
    case .strip: break
    case .clip: if lastContent != nil, trailingBreaks > 0 { result.append(.newline) }
    case .keep: result.append(contentsOf: repeatElement(.newline, count: trailingBreaks))
    }
    return .string(String(decoding: result, as: UTF8.self))
  }

  /// Folds lines: a break between two lines of text becomes a space, empty lines between them
  /// become breaks, and breaks around more-indented lines are kept.
  private func fold(_ lines: ArraySlice<ArraySlice<UInt8>>) -> [UInt8] {
    var result: [UInt8] = []
    var pendingEmpty = 0
    var isFirst = true
    var previousMoreIndented = false
    for line in lines {
      if line.isEmpty {
        pendingEmpty += 1
        continue
      }
      let moreIndented = line.first == .space || line.first == .tab
      if isFirst {
        result.append(contentsOf: repeatElement(.newline, count: pendingEmpty))
      } else if moreIndented || previousMoreIndented {
        result.append(contentsOf: repeatElement(.newline, count: pendingEmpty + 1))
      } else if pendingEmpty == 0 {
        result.append(.space)
      } else {
        result.append(contentsOf: repeatElement(.newline, count: pendingEmpty))
      }
      result.append(contentsOf: line)
      isFirst = false
      pendingEmpty = 0
      previousMoreIndented = moreIndented
    }
    return result
  }
}
