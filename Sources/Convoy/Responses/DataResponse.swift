import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer kept as raw bytes (images, files, bodies a caller parses itself).
public struct DataResponse: ResponseDescribing {
  /// The body.
  public let data: Data
  /// The status, URL and headers.
  public let response: HTTPResponse

  /// Keeps the body and the response as they are.
  public init(data: Data, response: HTTPResponse) throws {
    self.data = data
    self.response = response
  }
}
