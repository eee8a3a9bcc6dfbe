/// A response value that keeps the head it was made from, so pagination can read headers such
/// as `Link`. Convoy's own response types conform.
public protocol HTTPResponseProviding {
  /// The status, URL and headers of the answer.
  var response: HTTPResponse { get }
}

extension JSONResponse: HTTPResponseProviding {}
extension DataResponse: HTTPResponseProviding {}
extension EmptyResponse: HTTPResponseProviding {}
