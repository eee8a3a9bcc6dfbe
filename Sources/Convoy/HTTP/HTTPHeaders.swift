import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ordered collection of HTTP header fields with case-insensitive names.
///
/// Header names are case-insensitive (RFC 9110 §5.1); `HTTPURLResponse.allHeaderFields` on Linux
/// is not, so Convoy reads and writes headers only through this type.
public struct HTTPHeaders: Sendable, Hashable {
  /// One header field.
  public struct Field: Sendable, Hashable {
    /// The name as it was given; comparisons ignore its case.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields in the order they were added.
  public private(set) var fields: [Field] = []

  /// Creates an empty collection.
  public init() {}

  /// Creates a collection from fields, keeping their order and repeats.
  public init(_ fields: [Field]) {
    self.fields = fields
  }

  /// Creates a collection from a dictionary, with names in sorted order for stable output.
  public init(_ dictionary: [String: String]) {
    fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
  }

  /// The value for `name`, with repeated fields joined by `", "` (RFC 9110 §5.3);
  /// setting replaces every field of that name, and `nil` removes them.
  public subscript(name: String) -> String? {
    get {
      let values = self.values(for: name)
      return values.isEmpty ? nil : values.joined(separator: ", ")
    }
    set {
      remove(name)
      if let newValue { fields.append(Field(name: name, value: newValue)) }
    }
  }

  /// Every value given for `name`, in order.
  public func values(for name: String) -> [String] {
    fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
  }

  /// Whether a field named `name` is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.namesMatch($0.name, name) }
  }

  /// Appends a field without removing existing fields of the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Removes every field named `name`.
  public mutating func remove(_ name: String) {
    fields.removeAll { Self.namesMatch($0.name, name) }
  }

  /// Returns these headers with `other`'s fields replacing any of the same name.
  public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
    var merged = self
    for name in other.uniqueNames { merged.remove(name) }
    merged.fields.append(contentsOf: other.fields)
    return merged
  }

  /// The distinct names, first spelling kept, in order of first appearance.
  public var uniqueNames: [String] {
    var seen = Set<String>()
    return fields.compactMap { seen.insert($0.name.lowercased()).inserted ? $0.name : nil }
  }

  /// The headers as a dictionary with repeated fields joined by `", "` and the first spelling of
  /// each name kept, as `URLRequest` and `HTTPURLResponse` expect them.
  public var dictionary: [String: String] {
    // One pass over lowercased names: Foundation's case-insensitive comparison of every pair of
    // names cost more CPU than the rest of a small transfer when responses were built from it.
    var joined: [String: String] = Dictionary(minimumCapacity: fields.count)
    var spellings: [String: String] = Dictionary(minimumCapacity: fields.count)
    for field in fields {
      let key = field.name.lowercased()
      if let name = spellings[key] {
        joined[name]! += ", " + field.value
      } else {
        spellings[key] = field.name
        joined[field.name] = field.value
      }
    }
    return joined
  }

  /// Whether there are no fields.
  public var isEmpty: Bool { fields.isEmpty }

  /// Whether two field names are the same name. Names are tokens (RFC 9110 §5.1), so ASCII
  /// letters are compared without case byte by byte; Foundation's `caseInsensitiveCompare`,
  /// which goes through `NSString` on Linux, is asked only about names with other characters.
  static func namesMatch(_ first: String, _ second: String) -> Bool {
    var isASCII = true
    if first.utf8.count == second.utf8.count {
      for (a, b) in zip(first.utf8, second.utf8) {
        guard (a | b) & 0x80 == 0 else {
          isASCII = false
          break
        }
        guard a != b else { continue }
        let lower = a | 0x20
        guard lower == b | 0x20, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) else {
          return false
        }
      }
      if isASCII { return true }
    } else if first.utf8.allSatisfy({ $0 < 0x80 }), second.utf8.allSatisfy({ $0 < 0x80 }) {
      return false
    }
    return first.caseInsensitiveCompare(second) == .orderedSame
  }
}

extension HTTPHeaders: ExpressibleByDictionaryLiteral {
  /// Creates headers from a literal, keeping the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }
}

extension HTTPHeaders: Sequence {
  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }
}

extension HTTPHeaders {
  /// The headers of a response, read through `value(forHTTPHeaderField:)` semantics.
  public init(_ response: HTTPURLResponse) {
    // Every response on the URLSession transport comes through here: names are lowercased once
    // each rather than in every comparison of the sort, and `String(describing:)` is left for
    // keys and values that are not already strings.
    var keyed: [(key: String, field: Field)] = []
    keyed.reserveCapacity(response.allHeaderFields.count)
    for (key, value) in response.allHeaderFields {
      let name = key.base as? String ?? String(describing: key)
      let text = value as? String ?? String(describing: value)
      keyed.append((name.lowercased(), Field(name: name, value: text)))
    }
    keyed.sort { $0.key < $1.key }
    self = HTTPHeaders(keyed.map(\.field))
  }
}
