/// The directives of `Cache-Control` fields (RFC 9111 §5.2), names lower-cased.
struct CacheControl: Sendable, Hashable {
  private var directives: [String: String?] = [:]

  /// Parses every `Cache-Control` field in `headers`; the first occurrence of a repeated
  /// directive wins (RFC 9111 §4.2.1).
  init(_ headers: HTTPHeaders) {
    self.init(headers.values(for: "Cache-Control").joined(separator: ","))
  }

  init(_ value: String?) {
    guard let value else { return }
    for item in HeaderValueSyntax.split(Substring(value), separator: ",") {
      let (name, argument) = HeaderValueSyntax.parameter(item)
      if directives[name] == nil { directives[name] = .some(argument) }
    }
  }

  func contains(_ name: String) -> Bool { directives[name] != nil }

  /// A delta-seconds argument (RFC 9111 §1.2.2). An invalid one counts as `0`, which makes the
  /// response stale rather than fresh for longer than the server meant (RFC 9111 §4.2.1).
  func seconds(_ name: String) -> Int? {
    guard let entry = directives[name] else { return nil }
    return entry.flatMap(Self.deltaSeconds) ?? 0
  }

  /// `text` as delta-seconds (RFC 9111 §1.2.2): ASCII digits only, else `nil`. A value too large
  /// for 31 bits is 2^31, as the RFC asks, so later arithmetic never overflows.
  static func deltaSeconds(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    let significant = text.drop { $0 == "0" }
    guard significant.count <= 10 else { return 2_147_483_648 }
    return min(Int(String(significant)) ?? 0, 2_147_483_648)
  }

  var noStore: Bool { contains("no-store") }
  /// Qualified `no-cache="field"` is treated as unqualified: always revalidating is the safe
  /// reading RFC 9111 §5.2.2.4 allows.
  var noCache: Bool { contains("no-cache") }
  var mustRevalidate: Bool { contains("must-revalidate") }
  /// `s-maxage` is deliberately not read: it applies to shared caches only (RFC 9111 §5.2.2.10).
  var maxAge: Int? { seconds("max-age") }
}
