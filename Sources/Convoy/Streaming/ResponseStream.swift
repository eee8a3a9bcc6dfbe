import Foundation

/// A streamed answer: its head, judged before you get it, and its body as it arrives.
///
/// ```swift
/// let stream = try await connection.stream(FeedRequest())
/// print(stream.head.statusCode)
/// for try await chunk in stream.body {
///   print("received \(chunk.count) bytes")
/// }
/// ```
///
/// The transfer holds one of the connection's network slots until the body ends, the loop
/// reading it stops early, or the last copy of the stream goes away; any of those closes it.
public struct ResponseStream: Sendable {
  /// The status, URL and headers of the answer that was let through: redirects followed,
  /// renewals and retries done, status accepted by the request.
  public let head: HTTPResponse
  /// The body, read once, piece by piece.
  public let body: ResponseBody
}
