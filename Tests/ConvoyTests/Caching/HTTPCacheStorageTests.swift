import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct HTTPCacheStorageTests {
  private let clock = TestClock.forCaching()

  private func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-cache-tests-\(UUID().uuidString)", isDirectory: true)
  }

  private func freshStub(bodySize: Int = 10) -> StubTransport {
    StubTransport { _ in
      .response(
        status: 200, headers: ["Cache-Control": "max-age=600"],
        body: Data(repeating: 65, count: bodySize))
    }
  }

  private func connection(_ stub: StubTransport, _ cache: HTTPCache) -> ServerConnection {
    ServerConnection(configuration: .local(port: 8080), transport: stub, cache: cache)
  }

  @Test func memoryStaysWithinItsCapacityByEvictingTheLeastRecentlyUsed() async throws {
    let stub = freshStub(bodySize: 1_000)
    let cache = HTTPCache(memoryCapacity: 3_000, clock: clock)
    let connection = connection(stub, cache)
    for path in ["a", "b"] { _ = try await connection.execute(CachedGet(path: path)) }
    _ = try await connection.execute(CachedGet(path: "a"))  // a is now the most recent
    _ = try await connection.execute(CachedGet(path: "c"))  // evicts b
    #expect(cache.currentMemoryUsage <= 3_000)
    #expect(stub.requests.count == 3)
    _ = try await connection.execute(CachedGet(path: "a"))
    #expect(stub.requests.count == 3)
    _ = try await connection.execute(CachedGet(path: "b"))
    #expect(stub.requests.count == 4)
  }

  @Test func theDiskLayerOutlivesTheCacheInstance() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stub = freshStub()
    let first = HTTPCache(
      memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory, clock: clock)
    _ = try await connection(stub, first).execute(CachedGet())
    #expect(first.currentDiskUsage > 10)
    let second = HTTPCache(
      memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory, clock: clock)
    let answer = try await connection(stub, second).execute(CachedGet())
    #expect(answer.data == Data(repeating: 65, count: 10))
    #expect(stub.requests.count == 1)
  }

  @Test func theDiskLayerStaysWithinItsCapacity() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stub = freshStub(bodySize: 4_000)
    let cache = HTTPCache(
      memoryCapacity: 0, diskCapacity: 10_000, directory: directory, clock: clock)
    let connection = connection(stub, cache)
    for path in ["a", "b", "c", "d"] {
      _ = try await connection.execute(CachedGet(path: path))
      clock.advance(by: 1)
    }
    #expect(cache.currentDiskUsage <= 10_000)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(files.count == 2)
    _ = try await connection.execute(CachedGet(path: "d"))
    #expect(stub.requests.count == 4)
  }

  @Test func aCorruptFileIsAMissAndIsReplaced() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let stub = freshStub()
    let cache = HTTPCache(
      memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory, clock: clock)
    _ = try await connection(stub, cache).execute(CachedGet())
    let files = try FileManager.default.contentsOfDirectory(
      at: directory, includingPropertiesForKeys: nil)
    #expect(files.count == 1)
    for file in files { try Data("CNVC\u{1}garbage".utf8).write(to: file) }
    let reopened = HTTPCache(
      memoryCapacity: 0, diskCapacity: 1 << 20, directory: directory, clock: clock)
    _ = try await connection(stub, reopened).execute(CachedGet())
    #expect(stub.requests.count == 2)
    #expect(reopened.currentDiskUsage > 0)
  }

  @Test func removeAllEmptiesBothLayers() async throws {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = HTTPCache(diskCapacity: 1 << 20, directory: directory, clock: clock)
    _ = try await connection(freshStub(), cache).execute(CachedGet())
    cache.removeAll()
    #expect(cache.currentMemoryUsage == 0)
    #expect(cache.currentDiskUsage == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func anUnwritableDirectoryDisablesTheDiskLayerWithoutFailingCalls() async throws {
    let cache = HTTPCache(diskCapacity: 1 << 20, directory: URL(fileURLWithPath: "/dev/null/cache"))
    _ = try await connection(freshStub(), cache).execute(CachedGet())
    #expect(cache.currentDiskUsage == 0)
    #expect(cache.currentMemoryUsage > 0)
  }
}
