import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only file of records that survives crashes: a record ``append(_:)`` returned for is
/// on disk, and a record torn by a crash or damaged later is found, dropped and reported when the
/// file is opened again, never read as data and never taken for the end of the file.
///
/// The file is an 8-byte header (`CVJRNL`, then the format version) followed by records, each
///
///     magic "CVR1" (4 bytes) | length (UInt32, little-endian) | CRC-32 (UInt32, little-endian)
///     | payload (length bytes)
///
/// with the CRC taken over the length's bytes and the payload, so that a damaged length is caught
/// too. A record is written and made durable with `fsync` before `append` returns. Appends that
/// arrive while an `fsync` is under way share the next one (group commit): their records go out
/// in one `write` and one `fsync`, done on a thread of the journal's own, while they wait
/// suspended rather than holding threads of the cooperative pool (with those blocked, no more
/// appends could arrive to share the `fsync`). An append while none is under way writes at once,
/// on its own thread: one caller at a time pays no hand-over. A write that fails half-way is
/// cut off again, so no torn record is ever followed by good ones of the same process.
///
/// Opening reads every record. Bytes that do not form a valid record are skipped up to the next
/// valid one (the magic lets reading find it), and what was skipped is reported in a
/// ``Recovery``; the file is then written again without them. A file that does not start with
/// the header is refused, never rewritten: it is somebody else's.
///
/// ``replace(with:)`` compacts: it writes the records to keep into a new file, makes it durable,
/// and renames it over the old one, so a crash at any point leaves either file whole.
package final class RecordJournal: @unchecked Sendable {
  /// What opening found damaged, and dropped.
  package struct Recovery: Sendable, Equatable {
    /// How many bytes were skipped, in all.
    package var droppedBytes: Int
    /// How many damaged stretches there were; each held at least part of one record.
    package var damagedStretches: Int
    /// Whether the damage reached the end of the file: the last write was torn by a crash
    /// (the usual case), rather than a record damaged on disk between good ones.
    package var reachesEnd: Bool
  }

  /// A file operation that failed.
  package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, such as "open" or "fsync".
    package let operation: String
    /// The file it was done to.
    package let path: String
    /// The `errno`, when the system gave one; `0` otherwise.
    package let code: Int32
    /// Why, in words, when `code` does not say it.
    package let detail: String

    package var description: String {
      let reason = code != 0 ? String(cString: strerror(code)) : detail
      return "\(operation) \(path): \(reason)"
    }
  }

  /// The largest record accepted: larger lengths read from disk are damage.
  package static let maximumRecordSize = 64 << 20

  /// The file's first bytes: "CVJRNL", then the format version (1) and a newline.
  static let header: [UInt8] = Array("CVJRNL".utf8) + [1, 0x0A]
  /// The first bytes of every record.
  static let magic: [UInt8] = Array("CVR1".utf8)
  /// Magic, length and CRC.
  static let recordHeaderSize = 12

  package let fileURL: URL
  /// Held while the file is written: guards `descriptor` and `size`.
  private let lock = Lock()
  // Guarded by `lock`.
  private var descriptor: Int32
  private var size: Int
  /// The records waiting for the next write and `fsync`, and whether the writer is at work.
  private let waiting = Locked(Waiting())
  /// Where the writer works: `fsync` blocks its thread, which must not be one of the few the
  /// cooperative pool has.
  private let writer = DispatchQueue(label: "convoy.record-journal")

  /// Records waiting to be written, with their appenders.
  private struct Waiting {
    var bytes = Data()
    var appenders: [CheckedContinuation<Result<Void, Failure>, Never>] = []
    var isWriting = false
  }

  private init(fileURL: URL, descriptor: Int32, size: Int) {
    self.fileURL = fileURL
    self.descriptor = descriptor
    self.size = size
  }

  deinit {
    if descriptor >= 0 { _ = systemClose(descriptor) }
  }

  /// The file's size in bytes, header included.
  package var fileSize: Int { lock.withLock { size } }

  /// Opens the journal at `fileURL`, creating it (and its directory, readable by the user
  /// alone) when missing, and returns it with the records it holds, in the order they were
  /// appended, and what was dropped as damaged.
  package static func open(at fileURL: URL) throws(Failure)
    -> (journal: RecordJournal, records: [Data], recovery: Recovery?)
  {
    let path = fileURL.path
    let directory = fileURL.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw Failure(
        operation: "create directory", path: directory.path, code: 0, detail: "\(error)")
    }
    let existed = FileManager.default.fileExists(atPath: path)
    let descriptor = systemOpen(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
    let journal = RecordJournal(fileURL: fileURL, descriptor: descriptor, size: 0)
    let contents: Data
    do {
      contents = try Data(contentsOf: fileURL)
    } catch {
      throw Failure(operation: "read", path: path, code: 0, detail: "\(error)")
    }
    if !existed { try syncDirectory(of: fileURL) }
    if contents.count < header.count, contents.elementsEqual(header.prefix(contents.count)) {
      // New, or torn while its header was written: nothing was ever appended to it.
      try journal.replace(with: [])
      let recovery =
        contents.isEmpty
        ? nil : Recovery(droppedBytes: contents.count, damagedStretches: 1, reachesEnd: true)
      return (journal, [], recovery)
    }
    guard contents.starts(with: header) else {
      throw Failure(
        operation: "open", path: path, code: 0,
        detail: "not a Convoy journal (its first bytes are not CVJRNL); left untouched")
    }
    let (records, recovery) = parse(contents)
    if recovery != nil {
      try journal.replace(with: records)
    } else {
      journal.lock.withLock { journal.size = contents.count }
    }
    return (journal, records, recovery)
  }

  /// Appends `payload` as one record and returns once it is on disk.
  ///
  /// Records of concurrent appends are written in the order they arrived, and share one `fsync`.
  package func append(_ payload: Data) async throws(Failure) {
    guard payload.count <= Self.maximumRecordSize else {
      throw Failure(
        operation: "append", path: fileURL.path, code: 0,
        detail: "a record of \(payload.count) bytes is over the limit of "
          + "\(Self.maximumRecordSize)")
    }
    let record = Self.encode(payload)
    let writesAlone = waiting.withLock { waiting in
      defer { waiting.isWriting = true }
      return !waiting.isWriting
    }
    if writesAlone {
      // Nobody is writing: write at once, on this thread, as a journal with one caller at a
      // time always does; appends arriving meanwhile wait for the writer.
      let written = lock.withLock { Result { () throws(Failure) in try appendLocked(record) } }
      let hasWaiting = waiting.withLock { waiting in
        if waiting.appenders.isEmpty { waiting.isWriting = false }
        return !waiting.appenders.isEmpty
      }
      if hasWaiting { writer.async { self.writeWaitingRecords() } }
      return try written.get()
    }
    let written = await withCheckedContinuation { appender in
      let startsWriter = waiting.withLock { waiting in
        waiting.bytes.append(record)
        waiting.appenders.append(appender)
        defer { waiting.isWriting = true }
        return !waiting.isWriting
      }
      if startsWriter { writer.async { self.writeWaitingRecords() } }
    }
    try written.get()
  }

  /// Writes what waits, one `write` and one `fsync` for all of it, and tells its appenders; again
  /// until nothing waits.
  private func writeWaitingRecords() {
    while true {
      let (bytes, appenders) = waiting.withLock { waiting in
        defer { waiting.bytes = Data() }
        defer { waiting.appenders = [] }
        if waiting.appenders.isEmpty { waiting.isWriting = false }
        return (waiting.bytes, waiting.appenders)
      }
      guard !appenders.isEmpty else { return }
      let written = lock.withLock { Result { () throws(Failure) in try appendLocked(bytes) } }
      for appender in appenders { appender.resume(returning: written) }
    }
  }

  /// Appends `records`' bytes; holds `lock`.
  private func appendLocked(_ records: Data) throws(Failure) {
    let code = writeAll(records, to: descriptor)
    guard code == 0 else {
      // Cut the torn record off, so that the next append does not follow damage.
      _ = ftruncate(descriptor, off_t(size))
      throw Failure(operation: "write", path: fileURL.path, code: code)
    }
    guard Self.sync(descriptor) else {
      throw Failure(operation: "fsync", path: fileURL.path, code: errno)
    }
    size += records.count
  }

  /// Replaces every record with `payloads`, atomically: a crash leaves the old file or the new
  /// one, whole.
  package func replace(with payloads: [Data]) throws(Failure) {
    var contents = Data(Self.header)
    for payload in payloads { contents.append(Self.encode(payload)) }
    try lock.withLock { Result { () throws(Failure) in try replaceLocked(with: contents) } }.get()
  }

  /// Writes `contents` as the whole file; holds `lock`.
  private func replaceLocked(with contents: Data) throws(Failure) {
    let path = fileURL.path
    let temporary = path + ".compacting"
    let output = systemOpen(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw Failure(operation: "open", path: temporary, code: errno) }
    let code = writeAll(contents, to: output)
    guard code == 0, Self.sync(output) else {
      let failure = Failure(
        operation: code != 0 ? "write" : "fsync", path: temporary, code: code != 0 ? code : errno)
      _ = systemClose(output)
      unlink(temporary)
      throw failure
    }
    _ = systemClose(output)
    guard rename(temporary, path) == 0 else {
      let failure = Failure(operation: "rename", path: temporary, code: errno)
      unlink(temporary)
      throw failure
    }
    try Self.syncDirectory(of: fileURL)
    let reopened = systemOpen(path, O_RDWR | O_APPEND | O_CLOEXEC, 0o600)
    guard reopened >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
    _ = systemClose(descriptor)
    descriptor = reopened
    size = contents.count
  }

  /// The bytes of one record holding `payload`.
  static func encode(_ payload: Data) -> Data {
    var record = Data(capacity: recordHeaderSize + payload.count)
    record.append(contentsOf: magic)
    let length = UInt32(payload.count)
    let lengthBytes = withUnsafeBytes(of: length.littleEndian) { Array($0) }
    record.append(contentsOf: lengthBytes)
    let crc = payload.withUnsafeBytes { payloadBytes in
      lengthBytes.withUnsafeBytes { CRC32.checksum(payloadBytes, continuing: CRC32.checksum($0)) }
    }
    withUnsafeBytes(of: crc.littleEndian) { record.append(contentsOf: $0) }
    record.append(payload)
    return record
  }

  /// The valid records of a journal's `contents` (header included), and what was skipped.
  static func parse(_ contents: Data) -> (records: [Data], recovery: Recovery?) {
    // Read in place: a journal of many jobs is megabytes, and only the payloads are copied out.
    contents.withUnsafeBytes { parse($0) }
  }

  private static func parse(_ bytes: UnsafeRawBufferPointer) -> (
    records: [Data], recovery: Recovery?
  ) {
    var records: [Data] = []
    var recovery: Recovery?
    var offset = header.count
    while offset < bytes.count {
      if let length = validRecordLength(in: bytes, at: offset) {
        let start = offset + recordHeaderSize
        records.append(Data(UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])))
        offset = start + length
        continue
      }
      // Damage: skip to the next offset where a whole valid record starts, or to the end.
      var next = offset + 1
      while next < bytes.count, validRecordLength(in: bytes, at: next) == nil { next += 1 }
      var found = recovery ?? Recovery(droppedBytes: 0, damagedStretches: 0, reachesEnd: false)
      found.droppedBytes += next - offset
      found.damagedStretches += 1
      found.reachesEnd = next == bytes.count
      recovery = found
      offset = next
    }
    return (records, recovery)
  }

  /// The payload length of the record at `offset` when a whole one with a matching CRC starts
  /// there.
  private static func validRecordLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
    guard bytes.count - offset >= recordHeaderSize,
      bytes[offset..<offset + 4].elementsEqual(magic)
    else { return nil }
    let length = Int(littleEndianWord(bytes, at: offset + 4))
    guard length <= maximumRecordSize, bytes.count - offset - recordHeaderSize >= length else {
      return nil
    }
    let stored = littleEndianWord(bytes, at: offset + 8)
    let computed = CRC32.checksum(
      UnsafeRawBufferPointer(rebasing: bytes[offset + 12..<offset + 12 + length]),
      continuing: CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset + 4..<offset + 8])))
    return stored == computed ? length : nil
  }

  private static func littleEndianWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// Makes what was written to `descriptor` durable: on Apple platforms `fsync` only reaches
  /// the drive's cache, and `F_FULLFSYNC` goes on to the medium.
  private static func sync(_ descriptor: Int32) -> Bool {
    #if canImport(Darwin)
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
    #endif
    return fsync(descriptor) == 0
  }

  /// Makes a file's creation or renaming durable: that is a change to its directory.
  private static func syncDirectory(of fileURL: URL) throws(Failure) {
    let directory = fileURL.deletingLastPathComponent().path
    let descriptor = systemOpen(directory, O_RDONLY | O_CLOEXEC, 0)
    guard descriptor >= 0 else { throw Failure(operation: "open", path: directory, code: errno) }
    defer { _ = systemClose(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw Failure(operation: "fsync", path: directory, code: errno)
    }
  }
}

extension RecordJournal.Failure {
  /// A failure the system reported with `code`.
  init(operation: String, path: String, code: Int32) {
    self.init(operation: operation, path: path, code: code, detail: "")
  }
}
