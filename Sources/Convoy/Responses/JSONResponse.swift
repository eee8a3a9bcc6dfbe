import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An answer whose body is JSON decoded into `Value`.
public struct JSONResponse<Value: Decodable & Sendable>: ResponseDescribing {
  /// The decoded body.
  public let value: Value
  /// The status, URL and headers the body came with.
  public let response: HTTPResponse

  /// Decodes with a default `JSONDecoder`.
  public init(data: Data, response: HTTPResponse) throws {
    try self.init(data: data, response: response, decoder: JSONDecoder())
  }

  /// Decodes with the connection's or request's decoder.
  public init(data: Data, response: HTTPResponse, decoder: JSONDecoder) throws {
    self.value = try decoder.decode(Value.self, from: data)
    self.response = response
  }
}
