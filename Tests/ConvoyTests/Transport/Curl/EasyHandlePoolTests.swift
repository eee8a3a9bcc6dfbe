#if os(Linux)
  import Foundation
  import Testing

  @testable import Convoy

  @Suite struct EasyHandlePoolTests {
    @Test func aRecycledHandleIsTheNextOneTaken() throws {
      let library = try CurlLibrary.shared.get()
      let pool = EasyHandlePool(library: library, limit: 2)
      let first = try #require(pool.take())
      pool.recycle(first)
      #expect(pool.idleCount == 1)
      #expect(pool.take() == first)
      #expect(pool.idleCount == 0)
      pool.recycle(first)
    }

    @Test func handlesBeyondTheLimitAreCleanedUpNotKept() throws {
      let library = try CurlLibrary.shared.get()
      let pool = EasyHandlePool(library: library, limit: 2)
      let handles = (0..<5).compactMap { _ in pool.take() }
      #expect(handles.count == 5)
      #expect(Set(handles).count == 5, "an empty pool makes new handles")
      handles.forEach(pool.recycle)
      #expect(pool.idleCount == 2)
    }
  }
#endif
