import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records the status of every answer that came over the wire, under the cache.
private final class WireRecorder: HTTPTransport, @unchecked Sendable {
  private let wrapped = URLSessionTransport()
  private let log = Locked<[(request: URLRequest, status: Int)]>([])

  var exchanges: [(request: URLRequest, status: Int)] { log.current }

  func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
    do throws(TransportFailure) {
      let answer = try await wrapped.send(request)
      log.withLock { $0.append((request.urlRequest, answer.head.statusCode)) }
      return answer
    } catch {
      log.withLock { $0.append((request.urlRequest, -1)) }
      throw error
    }
  }
}

private struct Resource: RequestDescribing {
  typealias Response = DataResponse
  var path: String
  var queryItems: [URLQueryItem] = []
  var method: HTTPMethod { .get }
}

@Suite(.needs(.httpbin)) struct CachingIntegrationTests {
  private let wire = WireRecorder()
  private let cache = HTTPCache()

  private var connection: ServerConnection {
    ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: HTTPBin.shared.baseURL),
      transport: wire, cache: cache)
  }

  @Test func anETagIsRevalidatedWithA304OnTheWireAndDeliveredAsTheCachedValue() async throws {
    let first = try await connection.execute(Resource(path: "etag/convoy-1"))
    let second = try await connection.execute(Resource(path: "etag/convoy-1"))
    #expect(wire.exchanges.map(\.status) == [200, 304])
    #expect(wire.exchanges[1].request.value(forHTTPHeaderField: "If-None-Match") == "convoy-1")
    #expect(second.response.statusCode == 200)
    #expect(!second.data.isEmpty)
    #expect(second.data == first.data)
  }

  @Test func cacheWithMaxAgeIsServedWithoutTheNetwork() async throws {
    let first = try await connection.execute(Resource(path: "cache/60"))
    let second = try await connection.execute(Resource(path: "cache/60"))
    #expect(wire.exchanges.count == 1)
    #expect(second.data == first.data)
    #expect(second.response.headers["Age"] != nil)
  }

  @Test func noStoreIsNotCached() async throws {
    let request = Resource(
      path: "response-headers",
      queryItems: [
        URLQueryItem(name: "Cache-Control", value: "no-store"),
        URLQueryItem(name: "ETag", value: "\"nope\""),
      ])
    _ = try await connection.execute(request)
    _ = try await connection.execute(request)
    #expect(wire.exchanges.map(\.status) == [200, 200])
    #expect(wire.exchanges[1].request.value(forHTTPHeaderField: "If-None-Match") == nil)
    #expect(cache.currentMemoryUsage == 0)
  }
}
