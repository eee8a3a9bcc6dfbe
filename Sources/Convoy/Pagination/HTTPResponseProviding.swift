import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response value that keeps the `HTTPURLResponse` it was made from, so pagination can read
/// headers such as `Link`. Convoy's own response types conform.
public protocol HTTPResponseProviding {
  /// The status, URL and headers of the answer.
  var httpURLResponse: HTTPURLResponse { get }
}

extension JSONResponse: HTTPResponseProviding {}
extension DataResponse: HTTPResponseProviding {}
extension EmptyResponse: HTTPResponseProviding {}
