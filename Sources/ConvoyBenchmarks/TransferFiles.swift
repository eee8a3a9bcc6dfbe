import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The large files the transfer benchmarks serve and check: generated once, pseudo-random (so
/// that no layer can shortcut runs of zeros), and compared by a checksum read back from disk.
enum TransferFiles {
  /// One gigabyte (2^30 bytes), or `CONVOY_BENCH_MEGABYTES` megabytes.
  static var byteCount: Int {
    let megabytes = ProcessInfo.processInfo.environment["CONVOY_BENCH_MEGABYTES"].flatMap(Int.init)
    return (megabytes ?? 1_024) << 20
  }

  /// The served file, kept in the temporary directory between runs: generating it costs a few
  /// seconds, and its content depends only on its size.
  static func sourceFile(byteCount: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-bench-\(byteCount >> 20)MB.bin")
    if fileSize(url.path) == byteCount { return url }
    try generate(byteCount: byteCount, at: url)
    return url
  }

  /// Writes `byteCount` bytes of an xorshift64 sequence with a fixed seed, 1 MiB at a time.
  private static func generate(byteCount: Int, at url: URL) throws {
    let partial = url.path + ".partial"
    let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw BenchmarkError("cannot create \(partial)") }
    defer { close(descriptor) }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let words = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1 << 17)
    defer { words.deallocate() }
    var remaining = byteCount
    while remaining > 0 {
      for index in words.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        words[index] = state
      }
      let count = min(remaining, words.count * 8)
      guard writeAll(descriptor, UnsafeRawPointer(words.baseAddress!), count) else {
        throw BenchmarkError("cannot write \(partial)")
      }
      remaining -= count
    }
    guard rename(partial, url.path) == 0 else { throw BenchmarkError("cannot rename \(partial)") }
  }

  static func fileSize(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_size)
  }
}

/// A 64-bit FNV-1a over the file's 8-byte little-endian words (then its tail bytes and its
/// length), read back in 1 MiB chunks. Not cryptographic: it tells a byte-identical copy from a
/// truncated, shifted or corrupted one, at memory speed (SHA-256 is not in corelibs Foundation).
struct FileChecksum: Equatable, CustomStringConvertible {
  let value: UInt64
  let byteCount: Int

  var description: String { String(format: "%016llx", value) + " (\(byteCount) bytes)" }

  init?(path: String) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
    defer { chunk.deallocate() }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    let prime: UInt64 = 0x0000_0100_0000_01B3
    var total = 0
    while true {
      // Fill the whole chunk (short reads happen), so words never straddle two reads.
      var filled = 0
      while filled < chunk.count {
        let count = read(descriptor, chunk.baseAddress! + filled, chunk.count - filled)
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { break }
        filled += count
      }
      if filled == 0 { break }
      total += filled
      let words = filled / 8
      let pointer = chunk.baseAddress!.assumingMemoryBound(to: UInt64.self)
      for index in 0..<words { hash = (hash ^ UInt64(littleEndian: pointer[index])) &* prime }
      for index in (words * 8)..<filled { hash = (hash ^ UInt64(chunk[index])) &* prime }
      if filled < chunk.count { break }
    }
    value = (hash ^ UInt64(total)) &* prime
    byteCount = total
  }
}

/// Writes every byte, retrying short writes; `false` on an error.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
  var written = 0
  while written < count {
    let result = write(descriptor, bytes + written, count - written)
    if result < 0, errno == EINTR { continue }
    guard result > 0 else { return false }
    written += result
  }
  return true
}

/// This process's peak resident set (`VmHWM` in `/proc/self/status`), in KiB; 0 if unknown.
func peakResidentKilobytes() -> Int {
  statusField("VmHWM")
}

/// This process's resident set now (`VmRSS`), in KiB; 0 if unknown.
func residentKilobytes() -> Int {
  statusField("VmRSS")
}

private func statusField(_ name: String) -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}

/// `GET` of a path, for the transfer benchmarks; its `Response` type is not used by streams.
struct StaticPath: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  let path: String
}
