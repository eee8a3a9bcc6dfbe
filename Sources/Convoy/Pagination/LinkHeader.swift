import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The links of a `Link` header (RFC 8288 §3), resolved to absolute URLs.
///
/// ```swift
/// let page = try await connection.execute(Repositories())
/// let next = LinkHeader(response: page.response).url(forRelation: "next")
/// ```
public struct LinkHeader: Sendable, Hashable {
  /// One link.
  public struct Link: Sendable, Hashable {
    /// The target, resolved against the response's URL (RFC 8288 §3.1).
    public var url: URL
    /// The relation types, lower-cased (`rel="next last"` gives two; RFC 8288 §3.3).
    public var relations: [String]
    /// The other parameters, names lower-cased, values unquoted; the first occurrence wins.
    public var parameters: [String: String]
  }

  /// The links in the order they were given.
  public var links: [Link]

  /// Parses a `Link` field value; items that are not `<URI>; params` are skipped.
  ///
  /// - Parameters:
  ///   - value: One or more link-values separated by commas.
  ///   - baseURL: What relative references are resolved against: the URL of the response.
  public init(_ value: String, baseURL: URL?) {
    links = HeaderValueSyntax.split(Substring(value), separator: ",").compactMap {
      Self.link(from: $0, baseURL: baseURL)
    }
  }

  /// Parses the `Link` fields of `response`, resolving against its URL.
  public init(response: HTTPResponse) {
    self.init(response.headers["Link"] ?? "", baseURL: response.url)
  }

  /// The target of the first link with relation `relation` (compared case-insensitively).
  public func url(forRelation relation: String) -> URL? {
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
