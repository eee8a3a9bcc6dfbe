import Convoy
import Foundation

/// One entry of a ``StubRoutes`` table: which requests it answers and how.
///
/// A path pattern is a list of segments; `{name}` stands for any one segment and its value is
/// handed to the answer as a path parameter.
/// - A **relative** pattern (`v2/places/{id}`) matches the **end** of the request's path, so one
///   table serves every environment, whatever its base URL's path (`/api/v2/places/7` and
///   `/v2/places/7` both match).
/// - An **absolute** pattern (`/api/v2/places/{id}`) must match the whole path.
public struct StubRoute: Sendable, CustomStringConvertible {
  /// The method the route answers.
  public let method: HTTPMethod
  /// The path pattern, e.g. `v2/places/{id}`.
  public let pathPattern: String
  /// Further conditions on query, headers or body; all must hold.
  public let matchers: [StubMatcher]
  /// What the route answers.
  public let answer: StubAnswer

  private let segments: [Segment]
  private let isAnchored: Bool

  private enum Segment: Sendable {
    case literal(String)
    case placeholder(String)
  }

  /// Creates a route.
  public init(
    _ method: HTTPMethod, _ pathPattern: String, matchers: [StubMatcher] = [],
    answer: StubAnswer
  ) {
    self.method = method
    self.pathPattern = pathPattern
    self.matchers = matchers
    self.answer = answer
    isAnchored = pathPattern.hasPrefix("/")
    segments = pathPattern.split(separator: "/").map { part in
      part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2
        ? .placeholder(String(part.dropFirst().dropLast())) : .literal(String(part))
    }
  }

  /// The placeholder values when `request` matches, or `nil` when it does not.
  public func match(_ request: StubRequest) -> [String: String]? {
    guard request.method == method,
      let parameters = pathParameters(in: request.pathSegments),
      matchers.allSatisfy({ $0.matches(request) })
    else { return nil }
    return parameters
  }

  private func pathParameters(in path: [String]) -> [String: String]? {
    guard isAnchored ? path.count == segments.count : path.count >= segments.count else {
      return nil
    }
    var parameters: [String: String] = [:]
    for (segment, actual) in zip(segments, path.suffix(segments.count)) {
      switch segment {
      case .literal(let expected):
        guard expected == actual else { return nil }
      case .placeholder(let name):
        parameters[name] = actual
      }
    }
    return parameters
  }

  /// `GET v2/places/{id} [query page=2]`.
  public var description: String {
    let conditions = matchers.map(\.description).joined(separator: ", ")
    return "\(method) \(pathPattern)" + (conditions.isEmpty ? "" : " [\(conditions)]")
  }
}
