import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sets the request's HTTP method.
///
/// The pipeline applies the described ``RequestDescribing/method`` with it first; as a
/// connection-wide adapter it can, say, tunnel methods a proxy blocks.
public struct MethodAdapter: RequestAdapter {
  /// The method to set.
  public var method: HTTPMethod

  /// Creates the adapter.
  public init(_ method: HTTPMethod) {
    self.method = method
  }

  /// Returns the request with the method set.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    // Setting a method re-normalizes it and copies the request: skip it when it is already set.
    guard request.httpMethod != method.rawValue else { return request }
    var request = request
    request.httpMethod = method.rawValue
    return request
  }
}
