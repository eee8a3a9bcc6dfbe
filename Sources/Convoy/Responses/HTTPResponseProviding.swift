import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A response value that keeps the head it was made from, so callers and pagination can read its
/// status and headers (such as `Link`). Convoy's own response types conform.
public protocol HTTPResponseProviding {
  /// The status, URL and headers of the answer.
  var response: HTTPResponse { get }
}

extension HTTPResponseProviding {
  /// The response as Foundation's type, built on first access (see ``HTTPResponse``).
  public var httpURLResponse: HTTPURLResponse { response.httpURLResponse }

  /// Where the call's time went, up to its answer (``HTTPResponse/metrics``).
  public var metrics: CallMetrics? { response.metrics }
}

extension JSONResponse: HTTPResponseProviding {}
extension DataResponse: HTTPResponseProviding {}
extension EmptyResponse: HTTPResponseProviding {}
