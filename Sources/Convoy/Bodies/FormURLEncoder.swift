import Foundation

/// Writes parameters as `application/x-www-form-urlencoded` text, the way Rails (Rack), PHP,
/// Express (`qs`) and Alamofire-style servers read it back.
///
/// - Keys are sorted, so the same parameters always give the same bytes.
/// - Nested dictionaries become bracketed keys: `["user": ["name": "Ann"]]` → `user[name]=Ann`.
/// - Arrays follow ``arrayEncoding``: `ids[]=1&ids[]=2` (Rails, PHP, `qs`), `ids[0]=1&ids[1]=2`
///   (PHP's `http_build_query`, and the only form that keeps arrays of dictionaries apart), or
///   `ids=1&ids=2` (Go, Java servlets, Python's `parse_qs`).
/// - Empty arrays and dictionaries send nothing, as jQuery, PHP and Rails do.
/// - Names and values are percent-encoded strictly: everything but RFC 3986 unreserved
///   characters, brackets included (`ids%5B%5D=1`), as jQuery, PHP and Alamofire do; every form
///   parser decodes them before reading the brackets. Non-ASCII text is encoded as UTF-8
///   (`Zürich` → `Z%C3%BCrich`).
/// - A space is `%20` by default; ``SpaceEncoding/plus`` writes `+` (HTML forms, PHP's default).
///   A `+` in the text is always `%2B`, so neither choice is ambiguous.
public struct FormURLEncoder: Sendable, Hashable {
  /// How array elements are keyed.
  public enum ArrayEncoding: Sendable, Hashable {
    /// `key[]=a&key[]=b`.
    case brackets
    /// `key[0]=a&key[1]=b`.
    case indexed
    /// `key=a&key=b`.
    case repeatedKey
  }

  /// How booleans are written.
  public enum BoolEncoding: Sendable, Hashable {
    /// `1` and `0`, as PHP writes them and Rails' boolean casts accept.
    case numeric
    /// `true` and `false`.
    case literal
  }

  /// How a space is written.
  public enum SpaceEncoding: Sendable, Hashable {
    /// `%20` (RFC 3986).
    case percentEncoded
    /// `+` (the HTML form rules).
    case plus
  }

  /// How array elements are keyed.
  public var arrayEncoding: ArrayEncoding
  /// How booleans are written.
  public var boolEncoding: BoolEncoding
  /// How a space is written.
  public var spaceEncoding: SpaceEncoding

  /// Creates an encoder; the defaults match Alamofire's.
  public init(
    arrayEncoding: ArrayEncoding = .brackets, boolEncoding: BoolEncoding = .numeric,
    spaceEncoding: SpaceEncoding = .percentEncoded
  ) {
    self.arrayEncoding = arrayEncoding
    self.boolEncoding = boolEncoding
    self.spaceEncoding = spaceEncoding
  }

  /// The encoded text, e.g. `address%5Bcity%5D=Z%C3%BCrich&ids%5B%5D=1&ids%5B%5D=2`.
  public func encode(_ parameters: [String: FormValue]) -> String {
    pairs(parameters).map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
  }

  /// The same names and values as query items, for a GET that takes the same parameters.
  ///
  /// URL building encodes them strictly, so ``SpaceEncoding/plus`` does not apply there.
  public func queryItems(_ parameters: [String: FormValue]) -> [URLQueryItem] {
    pairs(parameters).map { URLQueryItem(name: $0.name, value: $0.value) }
  }

  /// The flattened names and values before percent-encoding, in output order.
  public func pairs(_ parameters: [String: FormValue]) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    for (key, value) in parameters.sorted(by: { $0.key < $1.key }) {
      flatten(value, key: key, into: &pairs)
    }
    return pairs
  }

  private func flatten(
    _ value: FormValue, key: String, into pairs: inout [(name: String, value: String)]
  ) {
    switch value {
    case .string(let text):
      pairs.append((key, text))
    case .integer(let number):
      pairs.append((key, String(number)))
    case .double(let number):
      pairs.append((key, String(describing: number)))
    case .bool(let flag):
      switch boolEncoding {
      case .numeric: pairs.append((key, flag ? "1" : "0"))
      case .literal: pairs.append((key, flag ? "true" : "false"))
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        flatten(element, key: arrayKey(key, index: index), into: &pairs)
      }
    case .dictionary(let members):
      for (name, member) in members.sorted(by: { $0.key < $1.key }) {
        flatten(member, key: "\(key)[\(name)]", into: &pairs)
      }
    }
  }

  private func arrayKey(_ key: String, index: Int) -> String {
    switch arrayEncoding {
    case .brackets: "\(key)[]"
    case .indexed: "\(key)[\(index)]"
    case .repeatedKey: key
    }
  }

  private func escape(_ text: String) -> String {
    let encoded = URLEncoding.encodeStrictly(text)
    guard spaceEncoding == .plus else { return encoded }
    return encoded.replacingOccurrences(of: "%20", with: "+")
  }
}
