import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer whose body, if any, is ignored (`204 No Content`, `DELETE` and the like).
public struct EmptyResponse: ResponseDescribing {
  /// The response.
  public let httpURLResponse: HTTPURLResponse

  /// Keeps the response and drops the body.
  public init(data: Data, httpURLResponse: HTTPURLResponse) throws {
    self.httpURLResponse = httpURLResponse
  }
}
