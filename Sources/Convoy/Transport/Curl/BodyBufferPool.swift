#if os(Linux)
  import Foundation

  /// Buffers for large buffered bodies, kept for the next answer of a similar size.
  ///
  /// Why: glibc trims a thread arena's top after large frees, so every fresh large body would
  /// land in pages the kernel has to fault in again while the body is copied in, a cost per
  /// answer that a kept buffer does not pay. A buffer comes back here when the app lets go of
  /// the body's `Data`.
  ///
  /// Memory stays bounded: only bodies of 64 KiB to 4 MiB are pooled (smaller ones come from
  /// malloc's bins, which are not trimmed; larger ones are rare in memory, since downloads
  /// stream to disk), and at most ``retainedByteLimit`` bytes wait here; the rest are freed.
  final class BodyBufferPool: Sendable {
    /// The pool the curl transport uses.
    static let shared = BodyBufferPool(retainedByteLimit: 16 << 20)
    static let minimumSize = 64 << 10
    static let maximumSize = 4 << 20

    let retainedByteLimit: Int
    private let state = Locked(State())

    private struct State {
      /// Free buffers by size class (a power of two).
      var free: [Int: [UnsafeMutableRawPointer]] = [:]
      var retainedBytes = 0
    }

    init(retainedByteLimit: Int) {
      self.retainedByteLimit = retainedByteLimit
    }

    /// A buffer of at least `byteCount` bytes, or `nil` when bodies of that size are not pooled.
    func take(atLeast byteCount: Int) -> UnsafeMutableRawBufferPointer? {
      guard byteCount >= Self.minimumSize, byteCount <= Self.maximumSize else { return nil }
      let size = Self.sizeClass(of: byteCount)
      let reused = state.withLock { state -> UnsafeMutableRawPointer? in
        guard let buffer = state.free[size]?.popLast() else { return nil }
        state.retainedBytes -= size
        return buffer
      }
      let start = reused ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
      return UnsafeMutableRawBufferPointer(start: start, count: size)
    }

    /// Takes `buffer` back for a later answer, or frees it when the pool holds enough.
    func recycle(_ buffer: UnsafeMutableRawBufferPointer) {
      guard let start = buffer.baseAddress else { return }
      let kept = state.withLock { state -> Bool in
        guard state.retainedBytes + buffer.count <= retainedByteLimit else { return false }
        state.free[buffer.count, default: []].append(start)
        state.retainedBytes += buffer.count
        return true
      }
      if !kept { start.deallocate() }
    }

    /// The bytes waiting in the pool, for tests.
    var retainedBytes: Int { state.withLock { $0.retainedBytes } }

    private static func sizeClass(of byteCount: Int) -> Int {
      1 << (Int.bitWidth - (byteCount - 1).leadingZeroBitCount)
    }
  }
#endif
