import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file as an `AsyncSequence` of `Data` chunks read with `read(2)`: the same bytes as the file
/// body, handed over the way an app's sequence would, without a generator's cost in the
/// measurement.
///
/// Each chunk is a fresh `malloc` wrapped without a copy (`Data(count:)` would zero it first).
/// The read blocks its task's thread; the file is in the page cache, so that is a `memcpy`.
struct FileChunks: AsyncSequence, Sendable {
  typealias Element = Data

  let path: String
  var chunkSize = 64 << 10

  func makeAsyncIterator() -> Iterator {
    Iterator(file: OpenFile(path: path), chunkSize: chunkSize)
  }

  struct Iterator: AsyncIteratorProtocol {
    let file: OpenFile
    let chunkSize: Int

    mutating func next() async throws -> Data? {
      guard file.descriptor >= 0 else { throw BenchmarkError("cannot open \(file.path)") }
      guard let bytes = malloc(chunkSize) else { throw BenchmarkError("out of memory") }
      var count: Int
      repeat {
        count = read(file.descriptor, bytes, chunkSize)
      } while count < 0 && errno == EINTR
      guard count > 0 else {
        free(bytes)
        if count < 0 { throw BenchmarkError("cannot read \(file.path)") }
        return nil
      }
      return Data(bytesNoCopy: bytes, count: count, deallocator: .free)
    }
  }

  /// The descriptor the iterator reads, closed with the last copy of the iterator.
  final class OpenFile: Sendable {
    let path: String
    let descriptor: Int32

    init(path: String) {
      self.path = path
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
    }

    deinit {
      if descriptor >= 0 { close(descriptor) }
    }
  }
}
