#if os(Linux)
  import Foundation

  /// Where a buffered answer's body collects on the loop thread: a pooled buffer when the
  /// server announced a large body (see ``BodyBufferPool`` for why), else a growing `Data`.
  struct CurlBodyBuffer {
    private let pool: BodyBufferPool
    private var data = Data()
    private var pooled: UnsafeMutableRawBufferPointer?
    private var pooledCount = 0

    init(pool: BodyBufferPool = .shared) {
      self.pool = pool
    }

    /// The bytes collected so far.
    var count: Int { pooled == nil ? data.count : pooledCount }

    /// Prepares room for the `announced` length before the first byte: one allocation for the
    /// whole body rather than one per doubling (and a copy each time). A compressed body
    /// announces its compressed length, which is only a smaller start; the cap keeps a lying
    /// header from reserving memory the body never fills.
    mutating func reserve(announced: Int) {
      guard count == 0, pooled == nil else { return }
      if let buffer = pool.take(atLeast: announced) {
        pooled = buffer
      } else {
        data.reserveCapacity(min(announced, 16 << 20))
      }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
      if let buffer = pooled {
        if pooledCount + bytes.count <= buffer.count {
          if let source = bytes.baseAddress, let target = buffer.baseAddress {
            (target + pooledCount).copyMemory(from: source, byteCount: bytes.count)
          }
          pooledCount += bytes.count
          return
        }
        // More than announced (a decoded body, say): go on in a Data, which can grow.
        data = Data(UnsafeRawBufferPointer(rebasing: buffer[0..<pooledCount]))
        discardPooled()
      }
      data.append(contentsOf: bytes)
    }

    /// The body, handed over once; a pooled buffer returns to the pool when the last copy of
    /// the `Data` is gone.
    mutating func take() -> Data {
      guard let buffer = pooled, let start = buffer.baseAddress, pooledCount > 0 else {
        discardPooled()
        defer { data = Data() }
        return data
      }
      pooled = nil
      let pool = pool
      let count = pooledCount
      pooledCount = 0
      // Sendable in practice: the pool recycles the address under its lock.
      nonisolated(unsafe) let owned = buffer
      return Data(
        bytesNoCopy: start, count: count, deallocator: .custom { _, _ in pool.recycle(owned) })
    }

    /// Gives back a buffer that holds no body any more (a failed or torn-down transfer).
    mutating func discardPooled() {
      if let buffer = pooled { pool.recycle(buffer) }
      pooled = nil
      pooledCount = 0
    }
  }
#endif
