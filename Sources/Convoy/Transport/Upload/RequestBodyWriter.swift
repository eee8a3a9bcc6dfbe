import Foundation

/// Writes a streamed request body as the app produces it; handed to the closure of
/// ``StreamedBody/writer(length:_:)``.
///
/// ``write(_:)`` suspends while the transport is behind (a slow server, a slow network), so an app
/// that writes faster than the body can be sent waits instead of filling memory.
///
/// ```swift
/// let body = RequestBody.writer(contentType: "text/csv") { writer in
///   for row in ["id,name", "1,Harbour"] { try await writer.write(Data("\(row)\n".utf8)) }
///   writer.setTrailers(["X-Row-Count": "2"])
/// }
/// ```
public final class RequestBodyWriter: Sendable {
  private let channel: BodyChannel

  init(channel: BodyChannel) {
    self.channel = channel
  }

  /// Appends `bytes` to the body, once the transport has room for them.
  ///
  /// - Throws: `CancellationError` once the transfer is over (cancelled, failed, or answered
  ///   before the body was whole): the writer should stop.
  public func write(_ bytes: some DataProtocol) async throws {
    guard !bytes.isEmpty else { return }
    try await channel.send(Data(bytes))
  }

  /// Sets the trailer fields sent after the body (on HTTP/1.1 the body is then sent chunked,
  /// which trailers need). Fields set later replace those set before.
  public func setTrailers(_ trailers: HTTPHeaders) {
    channel.setTrailers(trailers)
  }
}
