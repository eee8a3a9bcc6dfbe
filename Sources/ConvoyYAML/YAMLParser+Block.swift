extension YAMLParser {
  /// Parses the whole input: directives, one document, its markers.
  mutating func parseStream() throws(YAMLError) -> YAMLValue {
    try skipSeparation()
    var sawDirective = false
    while column == 0, peek() == .percent {
      let start = index
      var end = index
      while end < bytes.count, !isBlank(at: end - index) { end += 1 }
      let name = text(index..<end)
      guard name == "%YAML" else { throw error(.unsupported("the directive \(name)"), at: start) }
      while let byte = peek(), byte != .newline { advance() }
      sawDirective = true
      try skipSeparation()
    }
    var explicitStart = false
    if isAtDocumentMarker, peek() == .hyphen {
      advance(3)
      explicitStart = true
    } else if sawDirective {
      throw error(.expectedSeparator("'---' after a directive"))
    }
    let root = try parseBlockNode(
      parentIndent: -1, blockAllowedOnSameLine: !explicitStart, sequenceMayShareIndent: false)
    try finishBlockEntry()
    try skipSeparation()
    if isAtDocumentMarker, peek() == .period {
      advance(3)
      try skipSeparation()
    }
    if isAtEnd { return root }
    if isAtDocumentMarker, peek() == .hyphen {
      throw error(.unsupported("more than one document in a stream"))
    }
    throw error(.unexpectedContent(describeCurrent()))
  }

  /// Parses the node that follows an indicator (`-`, `key:`) or starts a document.
  ///
  /// - Parameters:
  ///   - parentIndent: The column of the collection holding the node; a node on a later line
  ///     must be indented more, or it is empty.
  ///   - blockAllowedOnSameLine: Whether a block collection may start on the indicator's line
  ///     (`- a: 1` may, `key: a: 1` may not).
  ///   - sequenceMayShareIndent: Whether a sequence at the parent's own column belongs to this
  ///     node, as a mapping value's does.
  mutating func parseBlockNode(
    parentIndent: Int, blockAllowedOnSameLine: Bool, sequenceMayShareIndent: Bool
  ) throws(YAMLError) -> YAMLValue {
    var onNewLine = try skipSeparation()
    var anchor: (name: String, position: Int)?
    var anchorOnKeyLine = false
    while true {
      if isAtEnd || isAtDocumentMarker { break }
      if onNewLine, !fitsBlock(parentIndent: parentIndent, sequenceMayShareIndent) { break }
      if peek() == .ampersand {
        if anchor != nil { throw error(.unsupported("two anchors on one node")) }
        let position = index
        anchor = (try readName(), position)
        let crossed = try skipSeparation()
        onNewLine = onNewLine || crossed
        anchorOnKeyLine = !crossed
        continue
      }
      let sizeBefore = nodeCount
      var keyAnchor = anchorOnKeyLine ? anchor?.name : nil
      let value = try parseBlockContent(
        parentIndent: parentIndent, compactAllowed: onNewLine || blockAllowedOnSameLine,
        keyAnchor: &keyAnchor)
      if let anchor, keyAnchor != nil || !anchorOnKeyLine {
        anchors[anchor.name] = (value, nodeCount - sizeBefore)
      }
      return value
    }
    nodeCount += 1
    if let anchor { anchors[anchor.name] = (.null, 1) }
    return .null
  }

  private func fitsBlock(parentIndent: Int, _ sequenceMayShareIndent: Bool) -> Bool {
    column > parentIndent
      || (column == parentIndent && sequenceMayShareIndent && peek() == .hyphen && isBlank(at: 1))
  }

  /// Parses a node's content once its properties are read. `keyAnchor` is an anchor written on
  /// the line of an implicit key; it names that key, so it is set to `nil` when used that way.
  private mutating func parseBlockContent(
    parentIndent: Int, compactAllowed: Bool, keyAnchor: inout String?
  ) throws(YAMLError) -> YAMLValue {
    let start = index
    let startColumn = column
    let byte = peek() ?? .space
    switch byte {
    case .hyphen where isBlank(at: 1):
      guard compactAllowed else { throw error(.blockCollectionNotAllowedHere) }
      return try parseBlockSequence(indent: startColumn)
    case .pipe, .greaterThan:
      return try parseBlockScalar(parentIndent: parentIndent)
    case .asterisk:
      let value = try parseAlias()
      if try isAtKeyIndicator(afterQuoted: false) {
        throw error(.unsupported("an alias as a mapping key"), at: start)
      }
      return value
    case .openBracket, .openBrace:
      let value = try parseFlowCollection()
      if try isAtKeyIndicator(afterQuoted: true) {
        throw error(.unsupported("a flow collection as a mapping key"), at: start)
      }
      return value
    case .questionMark where isBlank(at: 1):
      throw error(.unsupported("a complex mapping key ('? ')"))
    case .exclamation:
      throw error(.unsupported("a tag ('!')"))
    default:
      let scalar = try parseScalar(parentIndent: parentIndent, inFlow: false)
      guard try isAtKeyIndicator(afterQuoted: scalar.isQuoted) else { return scalar.value }
      if scalar.isMultiline { throw error(.multilineKey, at: start) }
      guard compactAllowed else { throw error(.blockCollectionNotAllowedHere, at: start) }
      advance()
      if let name = keyAnchor {
        anchors[name] = (.string(scalar.keyText), 1)
        keyAnchor = nil
      }
      return try parseBlockMapping(indent: startColumn, firstKey: scalar.key, at: start)
    }
  }

  /// Skips blanks on this line; whether a `:` that makes what precedes it a key follows.
  /// After a quoted scalar or flow collection the `:` may touch the next character (`"a":1`).
  private mutating func isAtKeyIndicator(afterQuoted: Bool) throws(YAMLError) -> Bool {
    while let byte = peek(), byte == .space || byte == .tab { advance() }
    return peek() == .colon && (afterQuoted || isBlank(at: 1))
  }

  private mutating func parseBlockSequence(indent: Int) throws(YAMLError) -> YAMLValue {
    try enterCollection(at: index)
    defer { leaveCollection() }
    nodeCount += 1
    var items: [YAMLValue] = []
    while true {
      advance()
      items.append(
        try parseBlockNode(
          parentIndent: indent, blockAllowedOnSameLine: true, sequenceMayShareIndent: false))
      try finishBlockEntry()
      try skipSeparation()
      if isAtEnd || isAtDocumentMarker || column < indent { break }
      if column > indent { throw error(.badIndentation) }
      // Anything else at this column is the next key of the mapping this sequence is a value of.
      guard peek() == .hyphen, isBlank(at: 1) else { break }
    }
    return .array(items)
  }

  private mutating func parseBlockMapping(
    indent: Int, firstKey: MappingKey, at firstKeyPosition: Int
  ) throws(YAMLError) -> YAMLValue {
    try enterCollection(at: firstKeyPosition)
    defer { leaveCollection() }
    nodeCount += 2
    var builder = MappingBuilder()
    var key = firstKey
    var keyPosition = firstKeyPosition
    while true {
      let value = try parseBlockNode(
        parentIndent: indent, blockAllowedOnSameLine: false, sequenceMayShareIndent: true)
      try builder.insert(value, for: key, at: keyPosition, in: self)
      try finishBlockEntry()
      try skipSeparation()
      if isAtEnd || isAtDocumentMarker || column < indent { break }
      if column > indent { throw error(.badIndentation) }
      keyPosition = index
      key = try parseBlockKey()
    }
    return .mapping(builder.mapping)
  }

  /// Parses `key:` at the start of a mapping entry after the first.
  private mutating func parseBlockKey() throws(YAMLError) -> MappingKey {
    var anchor: String?
    if peek() == .ampersand {
      anchor = try readName()
      while let byte = peek(), byte == .space || byte == .tab { advance() }
    }
    let byte = peek() ?? .space
    switch byte {
    case .questionMark where isBlank(at: 1):
      throw error(.unsupported("a complex mapping key ('? ')"))
    case .asterisk: throw error(.unsupported("an alias as a mapping key"))
    case .openBracket, .openBrace: throw error(.unsupported("a flow collection as a mapping key"))
    case .exclamation: throw error(.unsupported("a tag ('!')"))
    case .hyphen where isBlank(at: 1), .pipe, .greaterThan:
      throw error(.expectedSeparator("a mapping key"))
    default: break
    }
    let scalar = try parseScalar(parentIndent: Int.max, inFlow: false)
    guard try isAtKeyIndicator(afterQuoted: scalar.isQuoted) else {
      throw error(.expectedSeparator("':' after a mapping key"))
    }
    advance()
    nodeCount += 1
    if let anchor { anchors[anchor] = (.string(scalar.keyText), 1) }
    return scalar.key
  }

  /// After a block entry's node: the rest of its line must be blank or a comment.
  mutating func finishBlockEntry() throws(YAMLError) {
    // A nested collection or block scalar ends at the start of a later line: nothing to check.
    if bytes[lineStart..<index].allSatisfy({ $0 == .space }) { return }
    guard restOfLineIsEmpty() else {
      if peek() == .colon { throw error(.blockCollectionNotAllowedHere) }
      throw error(.unexpectedContent(describeCurrent()))
    }
  }

  /// Reads the name after `&` or `*`.
  mutating func readName() throws(YAMLError) -> String {
    advance()
    let start = index
    while let byte = peek(), !isBlank(), !byte.isFlowIndicator { advance() }
    guard index > start else { throw error(.expectedValue) }
    return text(start..<index)
  }

  /// Parses `*name`, counting the nodes it repeats against the alias limit.
  mutating func parseAlias() throws(YAMLError) -> YAMLValue {
    let start = index
    let name = try readName()
    guard let anchored = anchors[name] else { throw error(.undefinedAlias(name), at: start) }
    aliasedNodes += anchored.size
    nodeCount += anchored.size
    if aliasedNodes > limits.maximumAliasedNodes {
      throw error(.tooManyAliasedNodes(limit: limits.maximumAliasedNodes), at: start)
    }
    return anchored.value
  }
}

/// Builds a mapping, rejecting repeated keys and applying plain `<<` merge keys (whose entries
/// yield to keys written in the mapping itself, wherever they appear).
struct MappingBuilder {
  var mapping = YAMLMapping()
  private var explicitKeys: Set<String> = []

  mutating func insert(
    _ value: YAMLValue, for key: MappingKey, at position: Int, in parser: YAMLParser
  ) throws(YAMLError) {
    if key.isMerge {
      switch value {
      case .mapping(let merged): merge(merged)
      case .array(let list) where list.allSatisfy({ $0.mapping != nil }):
        for case .mapping(let merged) in list { merge(merged) }
      default:
        throw parser.error(
          .unsupported("a '<<' merge of something other than mappings"), at: position)
      }
      return
    }
    guard explicitKeys.insert(key.text).inserted else {
      throw parser.error(.duplicateKey(key.text), at: position)
    }
    mapping[key.text] = value
  }

  private mutating func merge(_ other: YAMLMapping) {
    for (key, value) in other where !mapping.contains(key) { mapping[key] = value }
  }
}
