import Foundation

/// The bytes a ``StreamBuffer`` could not hold in memory, in a temporary file of their own: written
/// at the end, read from the front, and removed when the last reference goes.
///
/// Not thread-safe: the buffer calls it under its lock.
final class StreamSpill {
  private let url: URL
  private let writer: FileHandle
  private let reader: FileHandle
  private var written: Int64 = 0
  private var read: Int64 = 0

  /// Creates an empty spill file in the temporary directory.
  ///
  /// - Throws: ``TransportFailure/Kind/readerTooSlow`` when the file cannot be made.
  init() throws(TransportFailure) {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-stream-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
      let writer = try? FileHandle(forWritingTo: url),
      let reader = try? FileHandle(forReadingFrom: url)
    else {
      try? FileManager.default.removeItem(at: url)
      throw Self.failure(
        "the file to hold them could not be made in \(url.deletingLastPathComponent().path)")
    }
    self.writer = writer
    self.reader = reader
  }

  deinit {
    try? writer.close()
    try? reader.close()
    try? FileManager.default.removeItem(at: url)
  }

  /// Adds `bytes` at the end.
  func write(_ bytes: Data) throws(TransportFailure) {
    do {
      try writer.write(contentsOf: bytes)
    } catch {
      throw Self.failure("they could not be written to disk: \(error.localizedDescription)")
    }
    written += Int64(bytes.count)
  }

  /// The next unread bytes, at most `limit`; `nil` once every byte written was read.
  func read(upTo limit: Int) throws(TransportFailure) -> Data? {
    guard read < written else { return nil }
    let count = Int(min(Int64(limit), written - read))
    let bytes: Data?
    do {
      bytes = try reader.read(upToCount: count)
    } catch {
      throw Self.failure("they could not be read back from disk: \(error.localizedDescription)")
    }
    guard let bytes, !bytes.isEmpty else {
      throw Self.failure("the file holding them ended early")
    }
    read += Int64(bytes.count)
    return bytes
  }

  private static func failure(_ why: String) -> TransportFailure {
    TransportFailure(
      kind: .readerTooSlow,
      detail: "bytes the reader had not taken yet overflowed memory, and \(why)")
  }
}
