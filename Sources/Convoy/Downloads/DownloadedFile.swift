import Foundation

/// A download that arrived whole and was moved into place.
public struct DownloadedFile: Sendable {
  /// Where the file is: the destination asked for.
  public let url: URL
  /// The head of the last answer (a `206` when the download ended on a resumed range).
  public let response: HTTPResponse
  /// The file's size in bytes.
  public let byteCount: Int64
  /// How many of those bytes were already on disk from an earlier, interrupted attempt or call.
  public let resumedByteCount: Int64
}
