import Convoy
import Foundation

/// A table of stubbed endpoints, declared per method and path, that records every request it
/// answers.
///
/// Routes are tried in the order they were added; the first that matches answers. A request no
/// route matches fails with a `TransportFailure` of kind `TransportFailure/Kind/other`
/// whose detail names the request and lists every route, so a missing stub says what is missing:
///
/// ```swift
/// let routes = StubRoutes()
///   .on(.get, "v2/places", answer: .json([["id": 1, "name": "Harbour"]]))
///   .on(.get, "v2/places/{id}") { request in .json(["id": request.pathParameters["id"]!]) }
/// let connection = ServerConnection(configuration: .staging, transport: StubTransport(routes: routes))
/// ```
///
/// The same table serves a ``StubTransport`` and, through
/// `URLSessionConfiguration.stubbed(by:)`, a `URLSession`. It is safe to add routes from any
/// thread, also while requests are being answered.
public final class StubRoutes: Sendable {
  private struct State {
    var routes: [StubRoute] = []
    var requests: [StubRequest] = []
    var unmatched: [StubRequest] = []
  }

  private let state = Locked(State())

  /// Creates an empty table.
  public init() {}

  /// Adds a route that gives `answer`.
  ///
  /// - Parameters:
  ///   - method: The method to match.
  ///   - path: The path pattern (see ``StubRoute``): relative patterns match the end of the path.
  ///   - query: Query items that must be present with these values.
  ///   - matchers: Further conditions on headers or body.
  ///   - answer: What to answer.
  /// - Returns: The table, so that routes can be chained.
  @discardableResult
  public func on(
    _ method: HTTPMethod, _ path: String, query: [String: String] = [:],
    where matchers: [StubMatcher] = [], answer: StubAnswer
  ) -> StubRoutes {
    let queryMatchers = query.sorted { $0.key < $1.key }.map { StubMatcher.query($0.key, $0.value) }
    let route = StubRoute(method, path, matchers: queryMatchers + matchers, answer: answer)
    state.withLock { $0.routes.append(route) }
    return self
  }

  /// Adds a route that decides its answer when a request arrives.
  ///
  /// - Parameters:
  ///   - method: The method to match.
  ///   - path: The path pattern; `{name}` values arrive in ``StubRequest/pathParameters``.
  ///   - query: Query items that must be present with these values.
  ///   - matchers: Further conditions on headers or body.
  ///   - respond: Makes the answer.
  /// - Returns: The table, so that routes can be chained.
  @discardableResult
  public func on(
    _ method: HTTPMethod, _ path: String, query: [String: String] = [:],
    where matchers: [StubMatcher] = [],
    respond: @escaping @Sendable (StubRequest) -> StubAnswer
  ) -> StubRoutes {
    on(method, path, query: query, where: matchers, answer: .closure(respond))
  }

  /// Every route, in the order they are tried.
  public var routes: [StubRoute] { state.current.routes }

  /// Every request answered so far, matched or not, in order, with its path parameters.
  public var requests: [StubRequest] { state.current.requests }

  /// The requests no route matched; a test that expects full coverage checks this is empty.
  public var unmatchedRequests: [StubRequest] { state.current.unmatched }

  /// Removes every route and forgets every recorded request.
  public func removeAll() {
    state.withLock { $0 = State() }
  }

  /// Records a request answered outside the table (the simulator's streamed endpoints), so
  /// ``requests`` still lists every request in order.
  func record(_ request: StubRequest) {
    state.withLock { $0.requests.append(request) }
  }

  /// Records `request` and gives the first matching route's answer, with closures already run,
  /// or the "no stub" failure.
  public func answer(for request: StubRequest) -> StubAnswer {
    // Matchers and closures run outside the lock, so that they may use the table themselves.
    for route in routes {
      guard let parameters = route.match(request) else { continue }
      var matched = request
      matched.pathParameters = parameters
      state.withLock { $0.requests.append(matched) }
      return route.answer.runningClosures(for: matched)
    }
    let registered = state.withLock { state in
      state.requests.append(request)
      state.unmatched.append(request)
      return state.routes.map(\.description)
    }
    let list = registered.isEmpty ? "none" : registered.joined(separator: "; ")
    return .failure(
      TransportFailure(kind: .other, detail: "no stub for \(request); registered: \(list)"))
  }
}
