import Foundation

/// The body of a request, carrying its own content type.
///
/// A body is encoded when the request is built for sending (at each attempt), not when it is
/// described, so describing a request never throws; an encoding failure surfaces as
/// ``ServerConnectionError/encodingFailed(_:_:)``.
///
/// ```swift
/// var body: RequestBody? { .json(NewPlace(name: "Harbour")) }
/// ```
public struct RequestBody: Sendable {
  /// Where the bytes come from.
  public enum Content: Sendable {
    /// Bytes already in memory.
    case data(Data)
    /// Bytes produced on demand, once per attempt.
    case encoded(@Sendable () throws -> Data)
    /// Bytes streamed from a file, for uploads too large to hold in memory.
    case file(URL)
    /// Bytes written by the closure into a temporary file at the given URL, then streamed.
    ///
    /// For bodies too large to hold in memory that must be assembled first, such as a multipart
    /// form with large files. The file is written once per call, reused by its retries, and
    /// removed when the call ends.
    case temporaryFile(@Sendable (URL) throws -> Void)
    /// Bytes produced while the request is sent, in constant memory: see ``StreamedBody``.
    case stream(StreamedBody)
  }

  /// The `Content-Type` header value, or `nil` to send none.
  public var contentType: String?

  /// Where the bytes come from.
  public var content: Content

  /// Whether the body can be sent again, which retries, 307/308 redirects and token renewal need.
  public var isReplayable: Bool

  /// Creates a body from its parts; a one-shot ``StreamedBody`` is never replayable, whatever
  /// `isReplayable` says.
  public init(content: Content, contentType: String?, isReplayable: Bool = true) {
    self.content = content
    self.contentType = contentType
    if case .stream(let body) = content {
      self.isReplayable = isReplayable && body.isReplayable
    } else {
      self.isReplayable = isReplayable
    }
  }

  /// A JSON body encoded from `value` with `encoder`.
  public static func json<Value: Encodable & Sendable>(
    _ value: Value, encoder: JSONEncoder = JSONEncoder()
  ) -> RequestBody {
    RequestBody(
      content: .encoded { try encoder.encode(value) },
      contentType: "application/json")
  }

  /// Raw bytes with an explicit content type.
  public static func data(
    _ data: Data, contentType: String = "application/octet-stream"
  ) -> RequestBody {
    RequestBody(content: .data(data), contentType: contentType)
  }

  /// UTF-8 text.
  public static func text(
    _ text: String, contentType: String = "text/plain; charset=utf-8"
  ) -> RequestBody {
    RequestBody(content: .data(Data(text.utf8)), contentType: contentType)
  }

  /// The contents of a file, streamed rather than loaded.
  public static func file(
    _ url: URL, contentType: String = "application/octet-stream"
  ) -> RequestBody {
    RequestBody(content: .file(url), contentType: contentType)
  }

  /// The chunks of `chunks`, read once while the request is sent: a one-shot body, never sent
  /// twice (see ``StreamedBody/Replay/oneShot``).
  ///
  /// - Parameters:
  ///   - chunks: The body's bytes, chunk by chunk.
  ///   - length: The number of bytes `chunks` will produce, when known: sent as
  ///     `Content-Length`; otherwise the body is sent chunked.
  ///   - contentType: The `Content-Type` header value.
  public static func stream<Chunks: AsyncSequence & Sendable>(
    _ chunks: Chunks, length: Int64? = nil, contentType: String = "application/octet-stream"
  ) -> RequestBody where Chunks.Element: Sequence<UInt8> {
    .stream(.oneShot(chunks, length: length), contentType: contentType)
  }

  /// A streamed body: restartable, seekable or one-shot as `body` says.
  ///
  /// - Parameters:
  ///   - body: Where the bytes come from.
  ///   - contentType: The `Content-Type` header value.
  public static func stream(
    _ body: StreamedBody, contentType: String = "application/octet-stream"
  ) -> RequestBody {
    RequestBody(content: .stream(body), contentType: contentType)
  }

  /// Bytes `write` writes while the request is sent, once per transfer (a restartable body): see
  /// ``StreamedBody/writer(length:_:)``.
  ///
  /// - Parameters:
  ///   - length: The number of bytes `write` will write, when known.
  ///   - contentType: The `Content-Type` header value.
  ///   - write: Writes the whole body with the writer it is given.
  public static func writer(
    length: Int64? = nil, contentType: String = "application/octet-stream",
    _ write: @escaping @Sendable (RequestBodyWriter) async throws -> Void
  ) -> RequestBody {
    .stream(.writer(length: length, write), contentType: contentType)
  }
}
