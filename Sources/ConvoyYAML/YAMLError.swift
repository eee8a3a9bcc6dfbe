/// Why a document could not be parsed, and where: a 1-based line and column (in characters).
///
/// ```swift
/// do { _ = try YAML.parse(text) } catch { print(error) }  // "3:5: tabs cannot indent YAML"
/// ```
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Hashable {
    /// The bytes are not UTF-8.
    case invalidUTF8
    /// A tab where YAML only allows spaces.
    case tabIndentation
    /// A line indented where no node can start.
    case badIndentation
    /// Content that cannot appear here, such as text after a closed flow collection.
    case unexpectedContent(String)
    /// `key: a: b` or `key: - a`: a block collection cannot start on the line of its key.
    case blockCollectionNotAllowedHere
    /// An implicit key (before `:`) that runs over more than one line.
    case multilineKey
    /// A key that appears twice in one mapping.
    case duplicateKey(String)
    /// A quoted scalar without its closing quote.
    case unterminatedScalar
    /// A flow collection (`[…]`, `{…}`) without its closing bracket.
    case unterminatedFlowCollection
    /// A flow collection entry not followed by `,` or the closing bracket.
    case expectedSeparator(String)
    /// A `\` escape that YAML does not define, or a bad `\u` code.
    case invalidEscape(String)
    /// A block scalar header (`|`, `>`) with bad indicators.
    case invalidBlockScalarHeader
    /// A value was expected but there is none.
    case expectedValue
    /// `*name` with no `&name` before it.
    case undefinedAlias(String)
    /// A valid YAML construct this parser does not handle.
    case unsupported(String)
    /// Collections nest deeper than ``YAMLLimits/maximumDepth``.
    case nestingTooDeep(limit: Int)
    /// Aliases stand for more nodes than ``YAMLLimits/maximumAliasedNodes``.
    case tooManyAliasedNodes(limit: Int)
    /// The document is larger than ``YAMLLimits/maximumDocumentSize`` bytes.
    case documentTooLarge(limit: Int)
  }

  /// What went wrong.
  public let reason: Reason
  /// The line, from 1.
  public let line: Int
  /// The column, from 1, counted in characters (Unicode scalars).
  public let column: Int

  /// Creates an error at a position.
  public init(_ reason: Reason, line: Int, column: Int) {
    self.reason = reason
    self.line = line
    self.column = column
  }

  /// `line:column: what went wrong`, for people.
  public var description: String { "\(line):\(column): \(reason.text)" }
}

extension YAMLError.Reason {
  /// The reason in words.
  var text: String {
    switch self {
    case .invalidUTF8: "the document is not UTF-8 text"
    case .tabIndentation: "tabs cannot indent YAML; use spaces"
    case .badIndentation: "this line is indented where nothing can start"
    case .unexpectedContent(let found): "unexpected \(found)"
    case .blockCollectionNotAllowedHere:
      "a block mapping or sequence cannot start on the same line as its key"
    case .multilineKey: "a key before ':' must fit on one line"
    case .duplicateKey(let key): "the key \"\(key)\" appears twice in this mapping"
    case .unterminatedScalar: "this quoted text has no closing quote"
    case .unterminatedFlowCollection: "this collection has no closing bracket"
    case .expectedSeparator(let expected): "expected \(expected)"
    case .invalidEscape(let escape): "\"\\\(escape)\" is not a valid escape"
    case .invalidBlockScalarHeader: "a block scalar header is '|' or '>' then '+', '-' or 1-9"
    case .expectedValue: "expected a value"
    case .undefinedAlias(let name): "the alias *\(name) has no anchor &\(name) before it"
    case .unsupported(let feature): "\(feature) is not supported"
    case .nestingTooDeep(let limit): "collections nest deeper than \(limit) levels"
    case .tooManyAliasedNodes(let limit): "aliases expand to more than \(limit) nodes"
    case .documentTooLarge(let limit): "the document is larger than \(limit) bytes"
    }
  }
}
