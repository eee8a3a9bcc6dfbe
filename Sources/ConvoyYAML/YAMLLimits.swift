/// Bounds that keep a hostile document from exhausting the stack or memory.
public struct YAMLLimits: Sendable, Hashable {
  /// The deepest nesting of collections accepted. Parsing recurses once per level, so this
  /// bounds the stack the parser uses.
  public var maximumDepth: Int

  /// The largest number of nodes that aliases may stand for in total, counting each use of an
  /// alias as the whole subtree it repeats. Stops "billion laughs" documents, whose few lines
  /// expand to an exponential number of nodes.
  public var maximumAliasedNodes: Int

  /// The largest document accepted, in UTF-8 bytes. The parser holds the whole document and
  /// its tree in memory, so this bounds both before any work is done.
  public var maximumDocumentSize: Int
  /// Creates limits; the defaults are far above what real OpenAPI documents need (the largest
  /// public ones are a few MiB).
  public init(
    maximumDepth: Int = 200, maximumAliasedNodes: Int = 1_000_000,
    maximumDocumentSize: Int = 64 << 20
  ) {
    self.maximumDepth = maximumDepth
    self.maximumAliasedNodes = maximumAliasedNodes
    self.maximumDocumentSize = maximumDocumentSize
  }
}
