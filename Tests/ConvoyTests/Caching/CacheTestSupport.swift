import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A clock tests move by hand, so freshness is tested without sleeping.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var date = Date(timeIntervalSince1970: 1_700_000_000)

  var now: Date { lock.withLock { date } }

  func advance(by seconds: TimeInterval) {
    lock.withLock { date += seconds }
  }

  /// `now` as an HTTP date, for `Date` headers that agree with the clock.
  var httpDate: String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: now)
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
      cache: HTTPCache(now: { clock.now }))
  }
}

extension DataResponse {
  var text: String { String(decoding: data, as: UTF8.self) }
  var status: Int { response.statusCode }
}

/// Polls `condition` every 5 ms for at most `timeout` seconds; returns whether it became true.
///
/// The bound is generous on purpose: a passing wait ends as soon as the condition holds, and on
/// two cores under ThreadSanitizer, with the whole suite running, a few seconds is not enough.
@discardableResult
func waitUntil(timeout: TimeInterval = 30, _ condition: () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < deadline else { return false }
    try? await Task.sleep(nanoseconds: 5_000_000)
  }
  return true
}
