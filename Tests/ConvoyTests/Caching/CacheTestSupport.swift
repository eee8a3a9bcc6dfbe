import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension TestClock {
  /// `now` plus `seconds` as an HTTP date, for `Date` and `Expires` headers that agree with the
  /// clock.
  func httpDate(in seconds: TimeInterval = 0) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: now.addingTimeInterval(seconds))
  }

  /// A clock for cache tests, at a whole second so that HTTP dates (whole seconds) agree with it.
  static func forCaching() -> TestClock {
    TestClock(now: Date(timeIntervalSince1970: 1_700_000_000))
  }
}

/// A GET for raw bytes with optional headers and cache policy.
struct CachedGet: RequestDescribing {
  typealias Response = DataResponse
  var path = "items"
  var headers: HTTPHeaders = [:]
  var cachePolicy: CachePolicy = .useProtocolPolicy
  var method: HTTPMethod { .get }
}

/// A POST to the same resource, to test invalidation.
struct CachedPost: RequestDescribing {
  typealias Response = EmptyResponse
  var path = "items"
  var method: HTTPMethod { .post }
  var body: RequestBody? { .text("new") }
}

extension ServerConnection {
  /// A connection on `transport` with a memory cache judged by `clock`.
  static func caching(_ transport: StubTransport, clock: TestClock) -> ServerConnection {
    ServerConnection(
      configuration: .local(port: 8080), transport: transport,
      cache: HTTPCache(clock: clock))
  }
}

extension DataResponse {
  var text: String { String(decoding: data, as: UTF8.self) }
  var status: Int { response.statusCode }
}
