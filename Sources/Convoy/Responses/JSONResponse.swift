import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer whose body is JSON decoded into `Value`.
public struct JSONResponse<Value: Decodable & Sendable>: ResponseDescribing {
  /// The decoded body.
  public let value: Value
  /// The response the body came with.
  public let httpURLResponse: HTTPURLResponse

  /// Decodes with a default `JSONDecoder`.
  public init(data: Data, httpURLResponse: HTTPURLResponse) throws {
    try self.init(data: data, httpURLResponse: httpURLResponse, decoder: JSONDecoder())
  }

  /// Decodes with the connection's or request's decoder.
  public init(data: Data, httpURLResponse: HTTPURLResponse, decoder: JSONDecoder) throws {
    self.value = try decoder.decode(Value.self, from: data)
    self.httpURLResponse = httpURLResponse
  }
}
