import Foundation

/// Percent-encoding rules shared by URL building, form bodies and cURL rendering.
package enum URLEncoding {
  /// RFC 3986 §2.3 unreserved characters: the only ones left bare in strict encoding.
  package static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  // pchar (RFC 3986 §3.3) plus "/" separating segments.
  private static let pathAllowed = unreserved.union(CharacterSet(charactersIn: "!$&'()*+,;=:@/"))

  /// `pathAllowed` as a table of ASCII bytes, without `%`, which needs a look at what follows it.
  private static let plainPathBytes: [Bool] = (0..<128).map { byte in
    byte != 0x25 && pathAllowed.contains(Unicode.Scalar(UInt8(byte)))
  }

  /// Encodes every character outside the unreserved set.
  package static func encodeStrictly(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  /// `name=value` with both parts strictly encoded; a `nil` value gives just `name`.
  package static func encodeQueryItem(_ item: URLQueryItem) -> String {
    let name = encodeStrictly(item.name)
    guard let value = item.value else { return name }
    return name + "=" + encodeStrictly(value)
  }

  /// `existing` (an already encoded query, or `nil`) with `items` appended after an `&`.
  package static func appendQueryItems(_ items: [URLQueryItem], to existing: String?) -> String {
    let encoded = items.map(encodeQueryItem).joined(separator: "&")
    guard let existing, !existing.isEmpty else { return encoded }
    return encoded.isEmpty ? existing : existing + "&" + encoded
  }

  /// Encodes what may not appear in a path, keeping valid `%XX` escapes as they are.
  package static func encodePath(_ path: String) -> String {
    // Almost every path is plain ASCII that needs nothing encoded: checking its bytes against a
    // table is much cheaper than `CharacterSet` lookups per scalar.
    if path.utf8.allSatisfy({ $0 < 128 && plainPathBytes[Int($0)] }) { return path }
    var output = ""
    let scalars = Array(path.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "%", index + 2 < scalars.count,
        scalars[index + 1].properties.isASCIIHexDigit, scalars[index + 2].properties.isASCIIHexDigit
      {
        output.unicodeScalars.append(contentsOf: scalars[index...index + 2])
        index += 3
        continue
      }
      if pathAllowed.contains(scalar) {
        output.unicodeScalars.append(scalar)
      } else {
        output += String(scalar).addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
      }
      index += 1
    }
    return output
  }

  /// Joins two path parts with exactly one slash, keeping a trailing slash of the second.
  package static func joinPaths(_ prefix: String, _ suffix: String) -> String {
    let head = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
    let tail = suffix.hasPrefix("/") ? String(suffix.dropFirst()) : suffix
    if tail.isEmpty { return head.isEmpty ? "/" : head + (prefix.hasSuffix("/") ? "/" : "") }
    return head + "/" + tail
  }
}
