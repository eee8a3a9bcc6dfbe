import Foundation

/// A value made from a server's answer to one request.
///
/// Convoy calls the initializer only for answers whose status the request accepts; other answers
/// become a ``ServerConnectionError``. Throwing from the initializer reports the answer as
/// unusable: a `DecodingError` becomes ``ServerConnectionError/decodingFailed(_:_:)``.
public protocol ResponseDescribing: Sendable {
  /// Creates the value from the body (empty `Data` when there is none) and the response head.
  init(data: Data, response: HTTPResponse) throws

  /// Creates the value using the decoder the connection or request chose.
  ///
  /// The default calls ``init(data:response:)``; types that decode JSON implement this to honour
  /// per-connection date and key strategies.
  init(data: Data, response: HTTPResponse, decoder: JSONDecoder) throws
}

extension ResponseDescribing {
  /// Ignores the decoder and calls ``init(data:response:)``.
  public init(data: Data, response: HTTPResponse, decoder: JSONDecoder) throws {
    try self.init(data: data, response: response)
  }
}
