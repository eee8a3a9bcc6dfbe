import Convoy
import Foundation

/// A route of a ``MockServer``: which requests it answers and where the answer comes from.
struct MockRoute: Sendable {
  /// Where a route's answer comes from.
  enum Source: Sendable {
    /// The same answer every time; its fault is known before the request body is read.
    case fixed(MockAnswer)
    /// An answer made from the whole request.
    case respond(@Sendable (RecordedRequest) async -> MockAnswer)
  }

  let method: HTTPMethod?
  let path: String
  let source: Source

  /// Whether this route answers `method` and `target` (whose query is ignored).
  func matches(_ method: String, _ target: String) -> Bool {
    if let wanted = self.method, wanted.rawValue != method { return false }
    let requestPath = target.prefix { $0 != "?" }
    if path.hasSuffix("*") { return requestPath.hasPrefix(path.dropLast()) }
    return requestPath == path
  }
}
