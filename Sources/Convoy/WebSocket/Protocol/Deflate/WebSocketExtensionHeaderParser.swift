/// Reads a `Sec-WebSocket-Extensions` value into its extensions, strictly.
///
/// The grammar is RFC 6455 §9.1's:
///
///     extension-list = 1#extension
///     extension      = token *( ";" extension-param )
///     extension-param = token [ "=" ( token / quoted-string ) ]
///
/// with RFC 7230's list rule (§7: optional whitespace around commas, empty elements ignored)
/// and quoted strings (§3.2.6: backslash escapes). Whitespace around `;` and `=` is allowed
/// too, as servers write `a; b=1` and some `a ; b = 1`. A quoted value must still be a token
/// once unquoted (RFC 6455 §9.1), so `"10"` is `10` and `"1 0"` is refused.
///
/// Strict on purpose: a split on commas and semicolons would read a quoted `,` or `;` as a
/// separator and take whatever stood between for names, and the answer decides how the client
/// decodes every later message.
package struct WebSocketExtensionHeaderParser {
  private let bytes: [UInt8]
  private var position = 0

  private init(_ value: String) {
    bytes = Array(value.utf8)
  }

  /// The extensions of `value`, in order; empty when it holds none (an empty value or only
  /// commas).
  package static func parse(
    _ value: String
  ) throws(PerMessageDeflateNegotiationError) -> [WebSocketExtensionElement] {
    var parser = WebSocketExtensionHeaderParser(value)
    return try parser.list()
  }

  private mutating func list() throws(PerMessageDeflateNegotiationError)
    -> [WebSocketExtensionElement]
  {
    var elements: [WebSocketExtensionElement] = []
    while true {
      skipWhitespace()
      guard let byte = peek() else { return elements }
      if byte == UInt8(ascii: ",") {
        position += 1
        continue
      }
      elements.append(try element())
      skipWhitespace()
      guard let separator = peek() else { return elements }
      guard separator == UInt8(ascii: ",") else { throw .malformedHeader(position: position) }
      position += 1
    }
  }

  private mutating func element() throws(PerMessageDeflateNegotiationError)
    -> WebSocketExtensionElement
  {
    var element = WebSocketExtensionElement(name: try token())
    skipWhitespace()
    while peek() == UInt8(ascii: ";") {
      position += 1
      skipWhitespace()
      let name = try token()
      skipWhitespace()
      var value: String?
      if peek() == UInt8(ascii: "=") {
        position += 1
        skipWhitespace()
        value = peek() == UInt8(ascii: "\"") ? try quotedToken() : try token()
        skipWhitespace()
      }
      element.parameters.append(.init(name, value))
    }
    return element
  }

  private mutating func token() throws(PerMessageDeflateNegotiationError) -> String {
    let start = position
    while let byte = peek(), Self.isTokenCharacter(byte) { position += 1 }
    guard position > start else { throw .malformedHeader(position: start) }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// A quoted string whose content, unescaped, is a token.
  private mutating func quotedToken() throws(PerMessageDeflateNegotiationError) -> String {
    let start = position
    position += 1
    var content: [UInt8] = []
    while true {
      guard var byte = peek() else { throw .malformedHeader(position: start) }
      position += 1
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        guard let escaped = peek() else { throw .malformedHeader(position: start) }
        position += 1
        byte = escaped
      }
      content.append(byte)
    }
    // Only a token survives unquoting; that also rules out the control characters and
    // non-ASCII bytes RFC 7230's qdtext and quoted-pair would otherwise allow.
    guard !content.isEmpty, content.allSatisfy(Self.isTokenCharacter) else {
      throw .malformedHeader(position: start)
    }
    return String(decoding: content, as: UTF8.self)
  }

  private func peek() -> UInt8? {
    position < bytes.count ? bytes[position] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
      position += 1
    }
  }

  /// RFC 9110 §5.6.2's `tchar`.
  private static func isTokenCharacter(_ byte: UInt8) -> Bool {
    HTTPFieldSyntax.isTokenCharacter(byte)
  }
}
