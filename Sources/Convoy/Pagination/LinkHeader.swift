import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The links of a `Link` header (RFC 8288 §3), resolved to absolute URLs. Apps read one with
/// ``HTTPResponse/url(forLinkRelation:)``.
struct LinkHeader: Sendable, Hashable {
  /// One link.
  struct Link: Sendable, Hashable {
    /// The target, resolved against the response's URL (RFC 8288 §3.1).
    var url: URL
    /// The relation types, lower-cased (`rel="next last"` gives two; RFC 8288 §3.3).
    var relations: [String]
    /// The other parameters, names lower-cased, values unquoted; the first occurrence wins.
    var parameters: [String: String]
  }

  /// The links in the order they were given.
  var links: [Link]

  /// Parses a `Link` field value; items that are not `<URI>; params` are skipped.
  ///
  /// - Parameters:
  ///   - value: One or more link-values separated by commas.
  ///   - baseURL: What relative references are resolved against: the URL of the response.
  init(_ value: String, baseURL: URL?) {
    links = HeaderValueSyntax.split(Substring(value), separator: ",").compactMap {
      Self.link(from: $0, baseURL: baseURL)
    }
  }

  /// Parses the `Link` fields of `response`, resolving against its URL.
  init(response: HTTPResponse) {
    self.init(response.headers["Link"] ?? "", baseURL: response.url)
  }

  /// The target of the first link with relation `relation` (compared case-insensitively).
  func url(forRelation relation: String) -> URL? {
    links.first { $0.relations.contains(relation.lowercased()) }?.url
  }

  private static func link(from item: Substring, baseURL: URL?) -> Link? {
    let parts = HeaderValueSyntax.split(item, separator: ";")
    guard let target = parts.first, target.first == "<", target.last == ">",
      let url = URL(string: String(target.dropFirst().dropLast()), relativeTo: baseURL)?
        .absoluteURL
    else { return nil }
    var parameters: [String: String] = [:]
    for part in parts.dropFirst() {
      let (name, value) = HeaderValueSyntax.parameter(part)
      if parameters[name] == nil { parameters[name] = value ?? "" }
    }
    // RFC 8288 §3.2: an anchor makes the link about another resource, not about this page.
    guard parameters["anchor"] == nil else { return nil }
    let relations = (parameters.removeValue(forKey: "rel") ?? "")
      .lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    return Link(url: url, relations: relations, parameters: parameters)
  }
}

extension HTTPResponse {
  /// The target of this answer's first `Link` header link with relation `relation`, compared
  /// case-insensitively and resolved against the answer's URL (RFC 8288), e.g. the last page:
  ///
  /// ```swift
  /// let page = try await connection.execute(Repositories())
  /// let last = page.response.url(forLinkRelation: "last")
  /// ```
  public func url(forLinkRelation relation: String) -> URL? {
    LinkHeader(response: self).url(forRelation: relation)
  }
}
