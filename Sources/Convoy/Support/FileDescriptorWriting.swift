import Foundation

#if canImport(Glibc)
  import Glibc
  private let systemWrite = Glibc.write
#elseif canImport(Musl)
  import Musl
  private let systemWrite = Musl.write
#elseif canImport(Darwin)
  import Darwin
  private let systemWrite = Darwin.write
#endif

/// Writes every byte of `data` to `descriptor`, going on after short writes and interruptions
/// (`EINTR`), as `write(2)` requires of a caller that wants them all written.
///
/// - Returns: `0` once everything is written, else the `errno` of the write that failed.
func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
  data.withUnsafeBytes { buffer -> Int32 in
    var written = 0
    while written < buffer.count {
      let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
      if count < 0 {
        if errno == EINTR { continue }
        return errno
      }
      written += count
    }
    return 0
  }
}
