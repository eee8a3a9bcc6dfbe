#if os(Linux)
  extension TransportFailure {
    /// Maps a libcurl result code (`CURLcode`) to the failure family every transport reports, so
    /// that ``ErrorMessageProvider`` words a refused connection the same on either transport.
    ///
    /// - Parameters:
    ///   - curlCode: The code from `CURLMSG_DONE`.
    ///   - text: libcurl's sentence for the code (`curl_easy_strerror`).
    ///   - message: libcurl's sentence for this very failure (`CURLOPT_ERRORBUFFER`), empty when
    ///     it wrote none; it tells apart faults that share a code (``LibcurlErrorMessage``). It
    ///     names at most a host and port, never a credential.
    init(curlCode: Int32, text: String, message: String = "") {
      let kind = LibcurlErrorMessage.refine(Kind(curlCode: curlCode), message: message)
      self.init(kind: kind, detail: "curl \(curlCode): \(message.isEmpty ? text : message)")
    }
  }

  extension TransportFailure.Kind {
    /// The family a `CURLcode` belongs to; the numbers are libcurl's stable ABI.
    init(curlCode: Int32) {
      switch curlCode {
      // UNSUPPORTED_PROTOCOL, URL_MALFORMAT
      case 1, 3: self = .unsupportedURL
      // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST
      case 5, 6: self = .cannotFindHost
      // COULDNT_CONNECT
      case 7: self = .cannotConnectToHost
      // PROXY: the proxy's handshake refused the transfer (SOCKS5 credentials or destination)
      case 97: self = .proxyRefused
      // OPERATION_TIMEDOUT
      case 28: self = .timedOut
      // PEER_FAILED_VERIFICATION (51 before 7.62, 60 since), SSL_ISSUER_ERROR
      case 51, 60, 83: self = .untrustedServerCertificate
      // SSL_PINNEDPUBKEYNOTMATCH
      case 90: self = .pinnedKeyMismatch
      // SSL_CONNECT_ERROR, SSL_ENGINE_*, SSL_CERTPROBLEM, SSL_CIPHER, USE_SSL_FAILED,
      // SSL_CACERT_BADFILE, SSL_SHUTDOWN_FAILED, SSL_CRL_BADFILE, SSL_INVALIDCERTSTATUS,
      // SSL_CLIENTCERT
      case 35, 53, 54, 58, 59, 64, 66, 77, 80, 82, 91, 98:
        self = .secureConnectionFailed
      // PARTIAL_FILE, GOT_NOTHING, SEND_ERROR, RECV_ERROR
      case 18, 52, 55, 56: self = .networkConnectionLost
      // WEIRD_SERVER_REPLY, HTTP2, BAD_CONTENT_ENCODING, HTTP2_STREAM, HTTP3
      case 8, 16, 61, 92, 95: self = .badServerResponse
      // READ_ERROR: the request body's file could not be read.
      case 26: self = .fileUnreadable
      // ABORTED_BY_CALLBACK
      case 42: self = .cancelled
      // TOO_MANY_REDIRECTS (never expected: libcurl follows none for Convoy)
      case 47: self = .tooManyRedirects
      default: self = .other
      }
    }
  }
#endif
