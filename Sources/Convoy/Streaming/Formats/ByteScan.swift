import Foundation

/// Fast searches in raw bytes, shared by the line splitter and the event-stream parser.
enum ByteScan {
  /// Line feed, `\n`.
  static let lf: UInt8 = 0x0A
  /// Carriage return, `\r`.
  static let cr: UInt8 = 0x0D

  /// The index of the first `byte` in `bytes` at or after `start`, or `nil`.
  static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int?
  {
    guard start < bytes.count, let base = bytes.baseAddress else { return nil }
    // memchr is vectorised by the C library: lines are found at memory speed.
    guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
    return UnsafeRawPointer(found) - base
  }
}
