import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Moves one HTTP exchange over the network: one request out, one answer back.
///
/// A transport follows no redirects (it hands 3xx answers back as they are; Convoy's
/// ``RedirectPolicy`` decides), retries nothing and judges no status: those rules live once,
/// above the transport, so every transport behaves the same. It is also the test seam:
/// `ConvoyTesting`'s stub transport conforms to it.
public protocol HTTPTransport: Sendable {
  /// Starts sending `request`.
  ///
  /// - Parameters:
  ///   - request: What to send.
  ///   - completion: Called exactly once, on any thread: with the answer, or with a
  ///     ``TransportFailure`` (kind ``TransportFailure/Kind/cancelled`` after `cancel()`).
  /// - Returns: A handle that cancels the transfer.
  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle

  /// Starts sending `request` and hands the answer to `receiver` as it arrives: the head once it
  /// is complete, then the body piece by piece, pausing while the receiver asks it to.
  ///
  /// Memory stays bounded by what the receiver keeps, however long the body. The default
  /// implementation, for transports that can only buffer, receives the whole answer with
  /// ``startTransfer(_:completion:)`` and then delivers it in pieces.
  ///
  /// - Returns: A handle that cancels the transfer (the receiver is then told
  ///   ``TransportFailure/Kind/cancelled``) or resumes a paused one.
  func startStreamingTransfer(_ request: TransportRequest, receiver: any TransferReceiver)
    -> any StreamingTransferHandle
}

/// Cancels one transfer.
public protocol TransferHandle: Sendable {
  /// Stops the transfer; its completion reports ``TransportFailure/Kind/cancelled`` unless it
  /// already completed. Calling it more than once is harmless.
  func cancel()
}

/// What a transport sends.
public struct TransportRequest: Sendable {
  /// The method, URL, headers and in-memory body.
  public var urlRequest: URLRequest
  /// A file whose contents are the body, streamed instead of `urlRequest.httpBody`.
  public var bodyFileURL: URL?
  /// A body produced while it is sent, instead of `urlRequest.httpBody`: the transport opens a
  /// ``RequestBodyStream`` of it for each transfer (``StreamedBody/open(at:)``). A transport
  /// that cannot stream a request body fails with
  /// ``TransportFailure/Kind/notSupportedByTransport``, never buffering it in silence.
  public var bodyStream: StreamedBody?
  /// The longest the transport may wait for the next bytes before failing with
  /// ``TransportFailure/Kind/timedOut``.
  public var idleTimeout: TimeInterval
  /// Whether the body may be sent again; ``RedirectPolicy`` follows a 307 or 308 that would
  /// resend it only when it may (``RequestBody/isReplayable``).
  public var isBodyReplayable: Bool
  /// How large an answer may be; a transport that can stop a transfer early stops it when a
  /// limit is passed, and Convoy checks every complete answer against them.
  public var responseLimits: ResponseLimits

  /// Creates a transport request.
  public init(
    urlRequest: URLRequest, bodyFileURL: URL? = nil, bodyStream: StreamedBody? = nil,
    idleTimeout: TimeInterval = 60, isBodyReplayable: Bool = true,
    responseLimits: ResponseLimits = ResponseLimits()
  ) {
    self.urlRequest = urlRequest
    self.bodyFileURL = bodyFileURL
    self.bodyStream = bodyStream
    self.idleTimeout = idleTimeout
    self.isBodyReplayable = isBodyReplayable
    self.responseLimits = responseLimits
  }
}

/// What a transport got back.
public struct TransportResponse: Sendable {
  /// The status, URL and headers.
  public var head: HTTPResponse
  /// The body, decompressed; empty when there was none.
  public var data: Data
  /// Timing and size of the exchange.
  public var metrics: TransferMetrics
  /// The trailer fields that followed the body (a chunked HTTP/1.1 body, or HTTP/2); empty when
  /// there were none or the transport cannot read them.
  public var trailers = HTTPHeaders()

  /// The status code of ``head``.
  public var statusCode: Int { head.statusCode }
  /// The headers of ``head``, with repeated fields kept apart where the transport can tell them
  /// apart.
  public var headers: HTTPHeaders { head.headers }
  /// The head as Foundation's type, built on first access (see ``HTTPResponse/httpURLResponse``).
  public var httpURLResponse: HTTPURLResponse { head.httpURLResponse }

  /// Creates a response.
  public init(head: HTTPResponse, data: Data, metrics: TransferMetrics) {
    self.head = head
    self.data = data
    self.metrics = metrics
  }

  /// Creates a response from Foundation's, which becomes the head's
  /// ``HTTPResponse/httpURLResponse``; `headers`, when given, replace those read from it (a
  /// transport that kept repeated fields apart knows more than `HTTPURLResponse` holds).
  public init(
    httpURLResponse: HTTPURLResponse, headers: HTTPHeaders? = nil, data: Data,
    metrics: TransferMetrics
  ) {
    let head = HTTPResponse(httpURLResponse, headers: headers ?? HTTPHeaders(httpURLResponse))
    self.init(head: head, data: data, metrics: metrics)
  }
}
