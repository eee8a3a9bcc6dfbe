#if canImport(FoundationNetworking) || os(Linux)
  /// Sorts libcurl's own error sentences into failure kinds where its result codes do not tell
  /// the faults apart.
  ///
  /// Both Linux transports sit on libcurl: ``CurlTransport`` reads the sentence from
  /// `CURLOPT_ERRORBUFFER`, and FoundationNetworking passes the same sentence on as the
  /// `URLError`'s description. The codes alone mislead: a broken chunked body is the same
  /// `CURLE_RECV_ERROR` as a reset, and a garbage status line is `CURLE_UNSUPPORTED_PROTOCOL`
  /// (libcurl takes it for HTTP/0.9), which reads as the app's mistake. FoundationNetworking also
  /// reports a truncated body and a header line without a colon as `URLError.unknown`. Going by
  /// the sentence gives every such fault one kind on both transports.
  enum LibcurlErrorMessage {
    /// The kind for a failure whose code gave `kind` and whose sentence is `message`.
    ///
    /// Only kinds the codes blur are refined; a TLS failure, a timeout or a cancellation stays
    /// what its code says even when the sentence mentions a reset. The phrases are libcurl's,
    /// stable across the 7.x and 8.x releases that Convoy supports.
    static func refine(_ kind: TransportFailure.Kind, message: String) -> TransportFailure.Kind {
      let text = message.lowercased()
      // FoundationNetworking reports a certificate it cannot verify, or a pin mismatch, as
      // `URLError.unknown` or `secureConnectionFailed`.
      if kind == .secureConnectionFailed || kind == .other {
        if text.contains("ssl certificate problem") { return .untrustedServerCertificate }
        if text.contains("pinned public key") { return .pinnedKeyMismatch }
      }
      // A TLS alert the server sent about the client's certificate: "tlsv13 alert certificate
      // required" (none shown, TLS 1.3), "tlsv1 alert unknown ca" or "alert bad certificate"
      // (one it does not trust). Under TLS 1.3 it arrives after the handshake, as a read error
      // (56) that the code alone would call a dropped connection. A server's certificate the
      // client refuses reads "SSL certificate problem" instead, with no alert.
      if clientCertificateAlerts.contains(where: text.contains) {
        return .clientCertificateRequired
      }
      // "Received HTTP code 407 from proxy after CONNECT", "CONNECT tunnel failed, response 403"
      if text.contains("from proxy after connect") || text.contains("connect tunnel failed") {
        return .proxyRefused
      }
      guard refinable.contains(kind) else { return kind }
      return Self.kind(of: text) ?? kind
    }

    private static let refinable: Set<TransportFailure.Kind> = [
      .unsupportedURL, .networkConnectionLost, .badServerResponse, .other,
    ]

    private static func kind(of text: String) -> TransportFailure.Kind? {
      // The server broke HTTP's framing: its answer cannot be read at all.
      if malformedPhrases.contains(where: text.contains) { return .badServerResponse }
      // The server went away before the answer was whole.
      if lostPhrases.contains(where: text.contains) { return .networkConnectionLost }
      return nil
    }

    // OpenSSL's names for the alerts (RFC 8446 §6.2) a server sends about a client's
    // certificate. A bare "handshake failure" is left alone: it also means no shared cipher.
    private static let clientCertificateAlerts = [
      "alert certificate required", "alert bad certificate", "alert unknown ca",
      "alert certificate unknown", "alert certificate revoked", "alert certificate expired",
      "alert unsupported certificate",
    ]

    private static let malformedPhrases = [
      "http/0.9",  // "Received HTTP/0.9 when not allowed": no status line at all
      "header without colon",
      "weird server reply",
      "invalid status line",
      "unsupported http version",
      "chunked-encoding",  // "Illegal or missing hexadecimal sequence in chunked-encoding"
      "chunk size",
      "malformed encoding",
      // FoundationNetworking's own head parser refused a line libcurl handed it ("Failed writing
      // header"), e.g. a status line without a reason phrase: the head cannot be read there.
      "failed writing header",
    ]

    private static let lostPhrases = [
      "transfer closed with",  // "… 900 bytes remaining to read": shorter than Content-Length
      "empty reply from server",
    ]
  }
#endif
