extension YAMLParser {
  /// Parses `[…]` or `{…}`, which may span lines (JSON documents are one flow collection).
  mutating func parseFlowCollection() throws(YAMLError) -> YAMLValue {
    let start = index
    try enterCollection(at: start)
    defer { leaveCollection() }
    nodeCount += 1
    let isSequence = peek() == .openBracket
    let closing: UInt8 = isSequence ? .closeBracket : .closeBrace
    advance()
    var items: [YAMLValue] = []
    var builder = MappingBuilder()
    while true {
      try skipSeparation(inFlow: true)
      guard let byte = peek() else { throw error(.unterminatedFlowCollection, at: start) }
      if byte == closing {
        advance()
        break
      }
      if byte == .questionMark, isBlank(at: 1) {
        throw error(.unsupported("a complex mapping key ('? ')"))
      }
      let entryStart = index
      let entry = try parseFlowNode()
      try skipSeparation(inFlow: true)
      if isSequence, peek() != .colon {
        items.append(entry.value)
      } else {
        // A key, in a mapping or as a single-pair mapping inside a sequence (`[a: 1]`).
        guard let key = entry.key else {
          throw error(.unsupported("a collection or alias as a mapping key"), at: entryStart)
        }
        var value = YAMLValue.null
        if peek() == .colon {
          advance()
          try skipSeparation(inFlow: true)
          if let next = peek(), next != .comma, next != closing {
            value = try parseFlowNode().value
          } else {
            nodeCount += 1
          }
        }
        if isSequence {
          // A mapping like any other, merge key included.
          nodeCount += 1
          var pair = MappingBuilder()
          try pair.insert(value, for: key, at: entryStart, in: self)
          items.append(.mapping(pair.mapping))
        } else {
          try builder.insert(value, for: key, at: entryStart, in: self)
        }
      }
      try skipSeparation(inFlow: true)
      guard let next = peek() else { throw error(.unterminatedFlowCollection, at: start) }
      if next == .comma {
        advance()
      } else if next != closing {
        throw error(.expectedSeparator(isSequence ? "',' or ']'" : "',' or '}'"))
      }
    }
    return isSequence ? .array(items) : .mapping(builder.mapping)
  }

  /// Parses one node inside a flow collection; `key` is set for scalars, which may be keys.
  private mutating func parseFlowNode() throws(YAMLError) -> (value: YAMLValue, key: MappingKey?) {
    try skipSeparation(inFlow: true)
    var anchor: String?
    if peek() == .ampersand {
      anchor = try readName()
      try skipSeparation(inFlow: true)
    }
    let sizeBefore = nodeCount
    let result: (value: YAMLValue, key: MappingKey?)
    switch peek() {
    case nil: throw error(.expectedValue)
    case .openBracket, .openBrace: result = (try parseFlowCollection(), nil)
    case .asterisk: result = (try parseAlias(), nil)
    case .exclamation: throw error(.unsupported("a tag ('!')"))
    case .pipe, .greaterThan: throw error(.unsupported("a block scalar inside a flow collection"))
    default:
      let scalar = try parseScalar(parentIndent: -1, inFlow: true)
      result = (scalar.value, scalar.key)
    }
    if let anchor { anchors[anchor] = (result.value, nodeCount - sizeBefore) }
    return result
  }
}
