import Foundation

/// Where a ``RequestBodyStream`` gets its chunks.
protocol BodyChunkProducer: AnyObject, Sendable {
  /// The next chunk, or `nil` at the end; called by one task at a time.
  func next() async throws -> Data?
  /// The trailers, once the end was reached.
  var trailers: HTTPHeaders { get }
  func cancel()
}
