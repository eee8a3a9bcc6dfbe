import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a transfer produced no HTTP answer, in terms every transport maps to.
public struct TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// The family of failure; ``ErrorMessageProvider`` words each one.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The transfer was cancelled.
    case cancelled
    /// The server did not answer in time.
    case timedOut
    /// The device has no network connection.
    case notConnectedToInternet
    /// The host name could not be resolved.
    case cannotFindHost
    /// The host refused or could not take the connection.
    case cannotConnectToHost
    /// The connection dropped before the answer was whole: reset, closed before the head, or
    /// closed before the body reached its announced `Content-Length`. The server may have acted on
    /// the request; an idempotent call may be sent again.
    case networkConnectionLost
    /// TLS failed: the handshake, the protocol version, a cipher.
    case secureConnectionFailed
    /// The server asked for a client certificate and accepted none: it sent a TLS alert about
    /// the client's certificate (`certificate_required`, `bad_certificate`, `unknown_ca`, …), or
    /// the platform said so (`URLError.clientCertificateRequired`/`…Rejected`). Not retried.
    case clientCertificateRequired
    /// The server's certificate is not signed by an authority the transport trusts, has expired,
    /// or names another host. Never retried: a moment later changes nothing, and it may be an
    /// attacker's.
    case untrustedServerCertificate
    /// The server's public key matches none of ``TLSConfiguration/pinnedPublicKeyHashes``. Never
    /// retried.
    case pinnedKeyMismatch
    /// The proxy refused to open a tunnel (`CONNECT`) to the server: it requires credentials, or
    /// refuses the destination. Not retried: the same call gets the same refusal.
    case proxyRefused
    /// The server sent something that is not a valid HTTP answer: a garbage status line, a header
    /// line without a colon, a broken chunked body. Worded as the server's fault
    /// (``ErrorCategory/malformedResponse``).
    case badServerResponse
    /// The answer passed one of the request's ``ResponseLimits``: a buffered body, or a head
    /// with too many or too large header fields. Not retried: the server would send it again.
    case responseTooLarge
    /// A redirect chain was too long or looped.
    case tooManyRedirects
    /// The URL's scheme or form is not supported by the transport.
    case unsupportedURL
    /// A local file (an upload body) could not be read.
    case fileUnreadable
    /// A streamed request body could not be produced: its source threw or was cancelled, it
    /// produced more or fewer bytes than it announced, or a one-shot body was asked for again.
    case requestBodyFailed
    /// The transport cannot send this request as asked (a streamed body on a transport that can
    /// only send bytes it holds, request trailers); the detail names what. Never retried.
    case notSupportedByTransport
    /// Nothing usable is cached and the request's cache policy forbids loading
    /// (``CachePolicy/returnCacheDontLoad``).
    case notCached
    /// A stream's reader fell further behind than its buffer allows, on a transport that cannot
    /// pause (FoundationNetworking's `URLSession`): the stream stops rather than letting memory
    /// grow without bound.
    case readerTooSlow
    /// Anything else.
    case other
  }

  /// The family of failure.
  public var kind: Kind
  /// A developer-facing detail, such as `"URLError -1004"` or `"curl 7: Couldn't connect"`.
  public var detail: String

  /// Creates a failure.
  public init(kind: Kind, detail: String) {
    self.kind = kind
    self.detail = detail
  }

  /// Maps a `URLError` to its family.
  public init(_ error: URLError) {
    self.init(kind: Kind(error.code), detail: "URLError \(error.code.rawValue)")
  }

  /// `cannotConnectToHost (URLError -1004)`.
  public var description: String { "\(kind.rawValue) (\(detail))" }
}

extension TransportFailure.Kind {
  /// The family a `URLError` code belongs to.
  public init(_ code: URLError.Code) {
    switch code {
    case .cancelled, .userCancelledAuthentication: self = .cancelled
    case .timedOut: self = .timedOut
    case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
      self = .notConnectedToInternet
    case .cannotFindHost, .dnsLookupFailed: self = .cannotFindHost
    case .cannotConnectToHost: self = .cannotConnectToHost
    case .networkConnectionLost: self = .networkConnectionLost
    // What URLSession reports for a cache-only request that finds nothing cached.
    case .resourceUnavailable: self = .notCached
    case .serverCertificateHasBadDate, .serverCertificateUntrusted,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
      self = .untrustedServerCertificate
    case .clientCertificateRejected, .clientCertificateRequired:
      self = .clientCertificateRequired
    case .secureConnectionFailed, .appTransportSecurityRequiresSecureConnection:
      self = .secureConnectionFailed
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
      .cannotDecodeContentData, .zeroByteResource:
      self = .badServerResponse
    case .dataLengthExceedsMaximum: self = .responseTooLarge
    case .httpTooManyRedirects, .redirectToNonExistentLocation: self = .tooManyRedirects
    case .unsupportedURL, .badURL: self = .unsupportedURL
    case .fileDoesNotExist, .noPermissionsToReadFile, .fileIsDirectory: self = .fileUnreadable
    default: self = .other
    }
  }
}
