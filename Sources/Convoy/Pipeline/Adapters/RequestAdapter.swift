import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One step that sets up a request before it is sent: a header, a signature, an encoding.
///
/// Adapters run in order for every attempt, connection-wide ones first, then the request's own.
/// Throwing stops the call with that error.
public protocol RequestAdapter: Sendable {
  /// Returns the request with this step applied.
  func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest
}

/// An adapter made from a closure, for one-off steps.
///
/// ```swift
/// let tracing = AnyRequestAdapter { request, _ in
///   var request = request
///   request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///   return request
/// }
/// ```
public struct AnyRequestAdapter: RequestAdapter {
  private let body: @Sendable (URLRequest, RequestContext) async throws -> URLRequest

  /// Wraps `body` as an adapter.
  public init(_ body: @escaping @Sendable (URLRequest, RequestContext) async throws -> URLRequest) {
    self.body = body
  }

  /// Calls the closure.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    try await body(request, context)
  }
}
