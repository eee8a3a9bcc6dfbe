import Convoy
// Lines (and so JSON Lines, which are lines decoded one by one): Convoy's `LineSplitter`
// against a plain reference that splits the whole stream at once. The first byte seeds the
// chunk sizes and the line limit. Checks: no crash; the same lines and the same first error
// (line too long, invalid UTF-8, with the same line number), whole or in chunks.
import Foundation

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let seed = start[0]
  let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
  for limit in [1 << 20, Int(seed % 32)] {
    let expected = referenceLines(bytes, limit: limit)
    let whole = split(bytes, chunks: [bytes.count], limit: limit)
    precondition(whole == expected, "the splitter and the reference disagree")
    let chunked = split(bytes, chunks: chunkSizes(total: bytes.count, seed: seed), limit: limit)
    precondition(chunked == expected, "cutting the stream into chunks changed the lines")
    for line in whole.lines where !line.isEmpty {
      // What `JSONLines` does with each line; it must fail as a value, never a crash.
      _ = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }
  }
  return 0
}

private struct Reading: Equatable {
  var lines: [String] = []
  var failure: StreamFormatError?
}

private func split(_ bytes: [UInt8], chunks: [Int], limit: Int) -> Reading {
  var splitter = LineSplitter(maximumLineLength: limit)
  var reading = Reading()
  var offset = 0
  do {
    for size in chunks {
      let chunk = Data(bytes[offset..<min(bytes.count, offset + size)])
      offset += size
      reading.lines += try splitter.lines(in: chunk)
    }
    if let last = try splitter.finish() { reading.lines.append(last) }
  } catch {
    reading.failure = error
  }
  return reading
}

/// Lines end at LF, a CR before it belongs to the terminator; each line must be UTF-8 and at
/// most `limit` bytes; an unterminated last line counts when it is not empty.
private func referenceLines(_ bytes: [UInt8], limit: Int) -> Reading {
  var reading = Reading()
  var pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  let last = pieces.removeLast()
  var terminated = pieces.map { $0.last == 0x0D ? $0.dropLast() : $0 }
  if !last.isEmpty { terminated.append(last) }
  for (index, line) in terminated.enumerated() {
    guard line.count <= limit else {
      reading.failure = .lineTooLong(line: index + 1, limit: limit)
      return reading
    }
    guard let text = String(validating: line, as: UTF8.self) else {
      reading.failure = .invalidUTF8(line: index + 1)
      return reading
    }
    reading.lines.append(text)
  }
  return reading
}

/// Chunk sizes from 1 to 16 bytes, chosen by a tiny generator seeded with `seed`.
private func chunkSizes(total: Int, seed: UInt8) -> [Int] {
  var state = UInt32(seed) &* 2_654_435_761 | 1
  var sizes: [Int] = []
  var covered = 0
  while covered < total {
    state = state &* 1_103_515_245 &+ 12_345
    let size = Int((state >> 16) % 16) + 1
    sizes.append(size)
    covered += size
  }
  return sizes
}
