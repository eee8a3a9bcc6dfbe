/// The entries of a YAML mapping, looked up by key and kept in document order (code generated
/// from a document should list properties in the order their authors wrote them).
///
/// Two mappings are equal when they hold the same entries in the same order.
public struct YAMLMapping: Sendable, Hashable, Sequence {
  /// The keys, in document order.
  public private(set) var keys: [String] = []
  private var values: [String: YAMLValue] = [:]

  /// An empty mapping.
  public init() {}

  /// A mapping holding `entries` in their order; a repeated key keeps its last value.
  public init(_ entries: [(String, YAMLValue)]) {
    for (key, value) in entries { self[key] = value }
  }

  /// The number of entries.
  public var count: Int { keys.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { keys.isEmpty }

  /// The value under `key`. Setting a new key appends it; setting `nil` removes the entry.
  public subscript(key: String) -> YAMLValue? {
    get { values[key] }
    set {
      if let newValue {
        if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
      } else if values.removeValue(forKey: key) != nil {
        keys.removeAll { $0 == key }
      }
    }
  }

  /// Whether `key` has an entry.
  public func contains(_ key: String) -> Bool { values[key] != nil }

  /// The entries in document order.
  public func makeIterator() -> AnyIterator<(key: String, value: YAMLValue)> {
    var keyIterator = keys.makeIterator()
    let values = values
    return AnyIterator {
      guard let key = keyIterator.next(), let value = values[key] else { return nil }
      return (key: key, value: value)
    }
  }
}
