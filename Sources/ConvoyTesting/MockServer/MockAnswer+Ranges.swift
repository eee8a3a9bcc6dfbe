import Convoy
import Foundation

extension MockAnswer {
  /// The answer to `request` for a resource whose bytes are `body`, honouring `Range` and
  /// `If-Range` (RFC 9110 §14.2 and §13.1.5): 200 with the whole body, 206 with the asked part
  /// and `Content-Range`, or 416 for a range that starts past the end.
  ///
  /// `If-Range` holding a validator other than `etag` or `lastModified` means the client's copy
  /// is out of date, so the whole body comes back with 200. A server that ignores `If-Range`
  /// (and so splices a new tail onto an old head) is scripted with `honoursIfRange: false`.
  ///
  /// ```swift
  /// let server = try await MockServer.started()
  /// let photo = Data(repeating: 7, count: 40_000)
  /// server.route(.get, "/photo.jpg") { request in
  ///   .ranged(photo, for: request, etag: "\"v2\"")
  /// }
  /// ```
  public static func ranged(
    _ body: Data, for request: RecordedRequest, etag: String? = nil, lastModified: String? = nil,
    honoursIfRange: Bool = true
  ) -> MockAnswer {
    var headers: HTTPHeaders = ["Accept-Ranges": "bytes"]
    if let etag { headers.add(name: "ETag", value: etag) }
    if let lastModified { headers.add(name: "Last-Modified", value: lastModified) }
    let whole = MockAnswer(status: 200, headers: headers, body: .bytes(body))
    guard let range = request.headers["Range"], let asked = ByteRange(range, size: body.count)
    else { return whole }
    if honoursIfRange, let validator = request.headers["If-Range"] {
      // An ETag must match strongly; a weak one never does (§13.1.5).
      let matchesETag = etag.map { !$0.hasPrefix("W/") && $0 == validator } ?? false
      let matchesDate = lastModified.map { $0 == validator } ?? false
      guard matchesETag || matchesDate else { return whole }
    }
    guard let bounds = asked.bounds else {
      headers.add(name: "Content-Range", value: "bytes */\(body.count)")
      return MockAnswer(status: 416, headers: headers)
    }
    headers.add(
      name: "Content-Range", value: "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(body.count)")
    return MockAnswer(
      status: 206, headers: headers, body: .bytes(body[bounds.lowerBound...bounds.upperBound]))
  }
}

/// One range of a `Range: bytes=…` header, resolved against the resource's size.
private struct ByteRange {
  /// The first and last byte, or `nil` when the range cannot be satisfied.
  let bounds: ClosedRange<Int>?

  /// `nil` for a header this server does not serve as a range (another unit, several ranges,
  /// bad syntax): RFC 9110 lets a server ignore such a `Range` and send the whole body.
  init?(_ header: String, size: Int) {
    guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
    let spec = header.dropFirst("bytes=".count)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    switch (Int(parts[0]), Int(parts[1])) {
    case (let first?, let last?) where first <= last:
      bounds = first < size ? first...min(last, size - 1) : nil
    case (let first?, nil) where parts[1].isEmpty:
      bounds = first < size ? first...(size - 1) : nil
    case (nil, let suffix?) where parts[0].isEmpty:
      bounds = suffix > 0 && size > 0 ? max(0, size - suffix)...(size - 1) : nil
    default:
      return nil
    }
  }
}
