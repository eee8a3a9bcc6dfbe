#if os(Linux)
  import Foundation
  import Testing

  @testable import Convoy

  @Suite struct EasyHandlePoolTests {
    @Test func aRecycledHandleIsTheNextOneTaken() throws {
      let library = try CurlLibrary.shared.get()
      let pool = EasyHandlePool(library: library, limit: 2)
      let first = try #require(pool.take())
      pool.recycle(first, resetting: false)
      #expect(pool.idleCount == 1)
      #expect(pool.take() == first)
      #expect(pool.idleCount == 0)
      pool.recycle(first, resetting: true)
      #expect(pool.take() == first)
      pool.recycle(first, resetting: false)
    }

    @Test func handlesBeyondTheLimitAreCleanedUpNotKept() throws {
      let library = try CurlLibrary.shared.get()
      let pool = EasyHandlePool(library: library, limit: 2)
      let handles = (0..<5).compactMap { _ in pool.take() }
      #expect(handles.count == 5)
      #expect(Set(handles.map(\.easy)).count == 5, "an empty pool makes new handles")
      #expect(Set(handles.map(\.errorMessage)).count == 5, "each handle has a buffer of its own")
      for handle in handles { pool.recycle(handle, resetting: false) }
      #expect(pool.idleCount == 2)
    }

    @Test func aHandleIsPreparedWhenMadeAndAgainOnlyAfterAReset() throws {
      let library = try CurlLibrary.shared.get()
      let preparations = Locked(0)
      let pool = EasyHandlePool(library: library, limit: 2) { _ in
        preparations.withLock { $0 += 1 }
      }
      let handle = try #require(pool.take())
      #expect(preparations.withLock { $0 } == 1)
      pool.recycle(handle, resetting: false)
      _ = try #require(pool.take())
      #expect(preparations.withLock { $0 } == 1, "a clean handle keeps its options")
      pool.recycle(handle, resetting: true)
      #expect(preparations.withLock { $0 } == 2, "a reset handle gets them again")
      _ = try #require(pool.take())
      pool.recycle(handle, resetting: false)
    }
  }
#endif
