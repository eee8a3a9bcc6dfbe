import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer whose body, if any, is ignored (`204 No Content`, `DELETE` and the like).
public struct EmptyResponse: ResponseDescribing {
  /// The status, URL and headers.
  public let response: HTTPResponse

  /// Keeps the response and drops the body.
  public init(data: Data, response: HTTPResponse) throws {
    self.response = response
  }
}
