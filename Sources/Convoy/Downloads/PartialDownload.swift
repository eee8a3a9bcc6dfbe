import Foundation

#if canImport(Glibc)
  import Glibc
  private let systemClose = Glibc.close
#elseif canImport(Darwin)
  import Darwin
  private let systemClose = Darwin.close
#endif

/// The bytes of an unfinished download, kept beside its destination, and what is needed to
/// resume it: `photo.jpg.convoy-partial` and `photo.jpg.convoy-partial.json`.
///
/// The partial file is never the destination itself, so an interrupted download is never
/// mistaken for a complete one: the destination appears only by an atomic rename once every byte
/// arrived.
struct PartialDownload {
  let destination: URL
  let dataURL: URL
  let recordURL: URL

  /// What an earlier attempt learnt about the file, for `If-Range`.
  struct Record: Codable, Equatable {
    var url: String
    var entityTag: String?
    var lastModified: String?
    var totalBytes: Int64?

    /// The validator `If-Range` may carry: a strong entity tag, else a date (RFC 9110 §13.1.5).
    var rangeValidator: String? {
      if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
      return lastModified
    }

    /// Whether a `206` answer is a range of the same representation as the partial file.
    ///
    /// A server that honours `Range` but ignores `If-Range` answers 206 for a changed file too;
    /// only the answer's own validators tell. The one sent in `If-Range` must come back equal (a
    /// strong entity tag compared strongly, RFC 9110 §8.8.3.2), and no other validator both
    /// carry may differ (§14.4: parts combine only when they share a strong validator).
    func isSameRepresentation(as head: HTTPResponse) -> Bool {
      let answerTag = head.headers["ETag"]
      let answerDate = head.headers["Last-Modified"]
      if let entityTag, !entityTag.hasPrefix("W/") {
        guard answerTag == entityTag else { return false }
      } else if let lastModified {
        guard answerDate == lastModified else { return false }
      } else {
        return false
      }
      if let entityTag, let answerTag, entityTag != answerTag { return false }
      if let lastModified, let answerDate, lastModified != answerDate { return false }
      return true
    }
  }

  init(destination: URL) {
    self.destination = destination
    self.dataURL = destination.appendingPathExtension("convoy-partial")
    self.recordURL = dataURL.appendingPathExtension("json")
  }

  /// Fails unless the destination's folder exists and is writable.
  func checkDestination() throws(FileTransferFailure) {
    let folder = destination.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue, access(folder, W_OK) == 0
    else {
      throw FileTransferFailure(
        kind: .destinationNotWritable, path: destination.path,
        detail: "the folder does not exist or cannot be written to")
    }
  }

  /// Where to resume `url`, if the partial file belongs to it and can be validated, with what
  /// was stored about it.
  func resumePoint(for url: URL?) -> (offset: Int64, validator: String, record: Record)? {
    guard let data = try? Data(contentsOf: recordURL),
      let record = try? JSONDecoder().decode(Record.self, from: data),
      record.url == url?.absoluteString, let validator = record.rangeValidator,
      let size = fileSize(dataURL), size > 0
    else { return nil }
    if let total = record.totalBytes, size > total { return nil }
    return (size, validator, record)
  }

  func save(_ record: Record) {
    guard let data = try? JSONEncoder().encode(record) else { return }
    // Without a record the next call starts over, which is safe; so a failure here is not one.
    try? data.write(to: recordURL, options: .atomic)
  }

  /// Opens the partial file for writing at `offset`, cutting off anything after it.
  func openForWriting(at offset: Int64) throws(FileTransferFailure) -> PartialFileWriter {
    let descriptor = open(dataURL.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure(errno: errno, path: dataURL.path) }
    guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) >= 0
    else {
      let code = errno
      close(descriptor)
      throw failure(errno: code, path: dataURL.path)
    }
    return PartialFileWriter(descriptor: descriptor, path: dataURL.path, offset: offset)
  }

  /// Moves the finished partial file to the destination in one step and forgets the record.
  func complete() throws(FileTransferFailure) {
    guard FileManager.default.fileExists(atPath: dataURL.path) else {
      throw FileTransferFailure(
        kind: .fileVanished, path: dataURL.path, detail: "the partial file is gone")
    }
    guard rename(dataURL.path, destination.path) == 0 else {
      throw failure(errno: errno, path: destination.path)
    }
    try? FileManager.default.removeItem(at: recordURL)
  }

  /// Removes the partial file and its record, so the next call starts over.
  func discard() {
    try? FileManager.default.removeItem(at: dataURL)
    try? FileManager.default.removeItem(at: recordURL)
  }

  private func fileSize(_ url: URL) -> Int64? {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return nil }
    return Int64(status.st_size)
  }
}

/// Appends to a partial file; one writer per attempt.
final class PartialFileWriter {
  private var descriptor: Int32
  private let path: String
  private(set) var offset: Int64

  init(descriptor: Int32, path: String, offset: Int64) {
    self.descriptor = descriptor
    self.path = path
    self.offset = offset
  }

  deinit {
    close()
  }

  func write(_ data: Data) throws(FileTransferFailure) {
    let result = writeAll(data, to: descriptor)
    guard result == 0 else { throw failure(errno: result, path: path) }
    offset += Int64(data.count)
  }

  /// Flushes the file to disk, so that a rename after it never exposes a file missing its tail.
  func finish() throws(FileTransferFailure) {
    guard fsync(descriptor) == 0 else { throw failure(errno: errno, path: path) }
    close()
  }

  func close() {
    guard descriptor >= 0 else { return }
    _ = systemClose(descriptor)
    descriptor = -1
  }
}

/// The failure for a file system error number.
private func failure(errno code: Int32, path: String) -> FileTransferFailure {
  let detail = String(cString: strerror(code))
  switch code {
  case ENOSPC, EDQUOT: return FileTransferFailure(kind: .diskFull, path: path, detail: detail)
  case ENOENT, ESTALE: return FileTransferFailure(kind: .fileVanished, path: path, detail: detail)
  default: return FileTransferFailure(kind: .destinationNotWritable, path: path, detail: detail)
  }
}
