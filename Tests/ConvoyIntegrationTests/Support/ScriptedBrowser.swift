import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A person at a browser, scripted: follows redirects one by one, keeps the server's cookies to
/// itself (never in `HTTPCookieStorage.shared`, which other tests' servers on 127.0.0.1 share),
/// and submits forms with their hidden fields and CSRF token.
final class ScriptedBrowser: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var cookies: [String: String] = [:]
  private lazy var session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpShouldSetCookies = false
    configuration.httpCookieAcceptPolicy = .never
    return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }()

  /// A page: where it ended up and its HTML.
  struct Page {
    var url: URL
    var status: Int
    var html: String
  }

  /// Loads `url`, following up to 10 redirects.
  func open(_ url: URL) async throws -> Page {
    try await send(URLRequest(url: url))
  }

  /// Submits the first form of `page` to its own URL with its hidden fields, the CSRF token and
  /// `fields`.
  func submit(_ page: Page, _ fields: [String: String]) async throws -> Page {
    var values = Self.hiddenFields(in: page.html)
    values.merge(fields) { _, new in new }
    var request = URLRequest(url: page.url)
    request.httpMethod = "POST"
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      values.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&").utf8)
    return try await send(request)
  }

  private func send(_ first: URLRequest) async throws -> Page {
    var request = first
    for _ in 0..<10 {
      request.setValue(cookieHeader(), forHTTPHeaderField: "Cookie")
      let (data, response) = try await session.data(for: request)
      let http = response as! HTTPURLResponse
      keepCookies(from: http)
      let url = request.url!
      guard (300..<400).contains(http.statusCode),
        let location = http.value(forHTTPHeaderField: "Location"),
        let next = URL(string: location, relativeTo: url)?.absoluteURL
      else {
        return Page(url: url, status: http.statusCode, html: String(decoding: data, as: UTF8.self))
      }
      request = URLRequest(url: next)
    }
    throw URLError(.httpTooManyRedirects)
  }

  private func cookieHeader() -> String? {
    lock.withLock {
      cookies.isEmpty ? nil : cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
  }

  private func keepCookies(from response: HTTPURLResponse) {
    guard let header = response.value(forHTTPHeaderField: "Set-Cookie") else { return }
    // Several Set-Cookie headers may arrive joined by commas; a cookie's expiry date holds one
    // too, so only a comma followed by a name and "=" starts the next cookie.
    let starts = try! NSRegularExpression(pattern: #"(?:^|,\s*)([A-Za-z0-9_\-]+)=([^;,]*)"#)
    let text = header as NSString
    for match in starts.matches(in: header, range: NSRange(location: 0, length: text.length)) {
      let name = text.substring(with: match.range(at: 1))
      if ["expires", "max-age", "path", "samesite", "domain"].contains(name.lowercased()) {
        continue
      }
      lock.withLock { cookies[name] = text.substring(with: match.range(at: 2)) }
    }
  }

  private static func hiddenFields(in html: String) -> [String: String] {
    let input = try! NSRegularExpression(pattern: #"<input[^>]*>"#)
    let attribute = try! NSRegularExpression(pattern: #"(\w+)=["']([^"']*)["']"#)
    var fields: [String: String] = [:]
    let text = html as NSString
    for tag in input.matches(in: html, range: NSRange(location: 0, length: text.length)) {
      let element = text.substring(with: tag.range) as NSString
      var attributes: [String: String] = [:]
      for pair in attribute.matches(
        in: element as String, range: NSRange(location: 0, length: element.length))
      {
        attributes[element.substring(with: pair.range(at: 1)).lowercased()] =
          element.substring(with: pair.range(at: 2))
      }
      guard attributes["type"]?.lowercased() == "hidden", let name = attributes["name"] else {
        continue
      }
      fields[name] = attributes["value"].map(Self.unescape) ?? ""
    }
    return fields
  }

  private static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">")
  }

  private static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  /// Redirects are followed one by one in `send`, so that every hop's cookies are kept.
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
