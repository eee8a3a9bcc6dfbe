// `Cache-Control`, `Expires`, `Date`, `Age` and `Vary` of a stored answer. The input is header
// lines (`Name: value`). Checks: no crash; delta-seconds are never negative nor above 2^31
// (RFC 9111 §1.2.2); freshness and age are numbers (never NaN); serving the stored answer
// writes an `Age` within 0…2^31.
import Foundation

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private let now = Date(timeIntervalSince1970: 1_800_000_000)

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  var fields: [HTTPHeaders.Field] = []
  for line in text.split(separator: "\n") {
    guard let colon = line.firstIndex(of: ":") else { continue }
    fields.append(
      HTTPHeaders.Field(
        name: String(line[..<colon]), value: String(line[line.index(after: colon)...])))
  }
  let headers = HTTPHeaders(fields)
  let control = CacheControl(headers)
  for name in ["max-age", "s-maxage", "stale-while-revalidate", "stale-if-error", "max-stale"] {
    if let seconds = control.seconds(name) {
      precondition((0...2_147_483_648).contains(seconds), "delta-seconds out of range")
    }
  }
  for field in fields { _ = HTTPDate.parse(field.value) }

  let url = URL(string: "https://example.com/a")!
  let entry = CacheEntry(
    key: CacheEntry.key(method: .get, url: url), url: url, statusCode: 200, headers: headers,
    body: Data(), requestDate: now.addingTimeInterval(-1), responseDate: now,
    varyingRequestHeaders: [:])
  precondition(!entry.freshnessLifetime.isNaN, "freshness is not a number")
  precondition(!entry.currentAge(now: now).isNaN, "age is not a number")
  _ = entry.isFresh(now: now)
  _ = entry.isWithinStaleIfError(now: now)
  _ = entry.isDescribed(by: headers)
  let freshened = entry.freshened(with: headers, requestDate: now, responseDate: now)
  // Serving a stored answer writes its age back as an `Age` header.
  let metrics = TransferMetrics(startDate: now, duration: 0, bytesReceived: 0, bytesSent: 0)
  for stored in [entry, freshened] {
    let served = stored.transportResponse(age: stored.currentAge(now: now), metrics: metrics)
    let age = served.headers["Age"].flatMap(Int.init)
    precondition(age.map { (0...2_147_483_648).contains($0) } == true, "Age out of range")
  }
  var request = URLRequest(url: url)
  for field in fields { request.addValue(field.value, forHTTPHeaderField: "X-" + field.name) }
  let vary = headers.values(for: "Vary").flatMap { $0.split(separator: ",").map(String.init) }
  _ = CacheEntry.varyingHeaders(of: request, vary: vary)
  return 0
}
