/// Bounds on what one answer may make Convoy hold in memory, so that a hostile or broken server
/// is refused cheaply instead of growing the process until the system kills it.
///
/// Every limit is checked while the answer arrives (on `CurlTransport`; other transports are
/// checked when their answer is complete, see Docs/Security.md) and a passed limit fails the
/// call with ``TransportFailure/Kind/responseTooLarge``, never retried.
///
/// ```swift
/// var configuration = ServerConfiguration(
///   environment: .production, baseURL: URL(string: "https://api.example.com/")!)
/// configuration.responseLimits.maximumBodySize = 256 << 20  // an API that sends large exports
/// ```
public struct ResponseLimits: Sendable, Hashable {
  /// The largest body `execute` (and every other buffered call) accepts, in bytes: 64 MiB
  /// unless told otherwise. Streamed bodies (lines, events, downloads to a file) are not
  /// buffered and have limits of their own.
  public var maximumBodySize: Int
  /// The most header fields one response head may have: 1,000 unless told otherwise.
  public var maximumHeaderFieldCount: Int
  /// The largest response head, status line and header fields counted as sent, in bytes:
  /// 256 KiB unless told otherwise.
  public var maximumHeadSize: Int

  /// Creates limits; the defaults are far above what real APIs send.
  public init(
    maximumBodySize: Int = 64 << 20, maximumHeaderFieldCount: Int = 1_000,
    maximumHeadSize: Int = 256 << 10
  ) {
    self.maximumBodySize = max(0, maximumBodySize)
    self.maximumHeaderFieldCount = max(0, maximumHeaderFieldCount)
    self.maximumHeadSize = max(0, maximumHeadSize)
  }

  /// The failure for an answer that passed the limit `name`, which is `value`.
  func failure(_ name: String, _ value: Int) -> TransportFailure {
    TransportFailure(
      kind: .responseTooLarge, detail: "the answer passed ResponseLimits.\(name) (\(value))")
  }

  /// The failure for `response`'s head or buffered body when it passed a limit, else `nil`.
  func violation(by response: TransportResponse) -> TransportFailure? {
    if response.data.count > maximumBodySize {
      return failure("maximumBodySize", maximumBodySize)
    }
    if response.headers.fields.count > maximumHeaderFieldCount {
      return failure("maximumHeaderFieldCount", maximumHeaderFieldCount)
    }
    return nil
  }
}
