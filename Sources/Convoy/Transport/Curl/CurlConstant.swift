#if os(Linux)
  /// The numeric values from `curl/curl.h` and `curl/multi.h` that Convoy uses.
  ///
  /// They are part of libcurl's ABI and never change once released: an option's number is its type
  /// base (`LONG` 0, `OBJECTPOINT` 10000, `FUNCTIONPOINT` 20000, `OFF_T` 30000) plus a fixed
  /// index.
  package enum CurlConstant {
    package static let globalAll = 3
    package static let versionFirst: Int32 = 0

    // Easy options.
    package static let writeData: Int32 = 10_001
    package static let url: Int32 = 10_002
    package static let readData: Int32 = 10_009
    package static let errorBuffer: Int32 = 10_010
    package static let writeFunction: Int32 = 20_011
    package static let readFunction: Int32 = 20_012
    package static let httpHeader: Int32 = 10_023
    package static let headerData: Int32 = 10_029
    package static let customRequest: Int32 = 10_036
    package static let noBody: Int32 = 44
    package static let post: Int32 = 47
    package static let followLocation: Int32 = 52
    package static let sslVerifyPeer: Int32 = 64
    package static let headerFunction: Int32 = 20_079
    package static let sslVerifyHost: Int32 = 81
    package static let httpVersion: Int32 = 84
    package static let noSignal: Int32 = 99
    package static let acceptEncoding: Int32 = 10_102
    package static let postFieldSizeLarge: Int32 = 30_120
    package static let uploadBufferSize: Int32 = 280
    package static let postFields: Int32 = 10_015
    package static let connectTimeoutMilliseconds: Int32 = 156
    package static let pipeWait: Int32 = 237
    package static let suppressConnectHeaders: Int32 = 265
    package static let noProgress: Int32 = 43
    package static let xferInfoData: Int32 = 10_057
    package static let xferInfoFunction: Int32 = 20_219
    package static let trailerFunction: Int32 = 20_283
    package static let trailerData: Int32 = 10_284

    /// The size `CURLOPT_ERRORBUFFER` must have (`CURL_ERROR_SIZE`).
    package static let errorBufferSize = 256

    /// A write callback's return value that pauses receiving and keeps the bytes offered for
    /// later (`CURL_WRITEFUNC_PAUSE`).
    package static let writePause = 0x1000_0001
    /// `CURLPAUSE_CONT`: unpause both directions.
    package static let pauseContinue: Int32 = 0
    /// `CURLPAUSE_RECV` and `CURLPAUSE_SEND`: the bits of `curl_easy_pause`'s mask.
    package static let pauseReceive: Int32 = 1
    package static let pauseSend: Int32 = 4
    /// A read callback's return value that pauses sending until `curl_easy_pause` lifts it.
    package static let readPause = 0x1000_0001

    /// `CURL_HTTP_VERSION_2TLS`: HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
    package static let httpVersion2OverTLS = 4
    package static let httpVersion11 = 2
    /// `CURLOPT_CONNECT_ONLY`: connect (TLS and proxy included), then hand the connection over.
    package static let connectOnly: Int32 = 141
    /// `CURLOPT_HTTPPROXYTUNNEL`: reach the server through an HTTP proxy with `CONNECT`, also for
    /// plain `http`.
    package static let httpProxyTunnel: Int32 = 61
    /// `CURLINFO_ACTIVESOCKET`: a connect-only handle's socket.
    package static let infoActiveSocket: Int32 = 0x50_0000 + 44
    /// `CURLE_AGAIN`: `curl_easy_send` or `curl_easy_recv` would block.
    package static let again: Int32 = 81

    /// A read callback's return value that aborts the transfer (`CURL_READFUNC_ABORT`).
    package static let readAbort = 0x1000_0000

    // Proxy options.
    package static let proxy: Int32 = 10_004
    package static let proxyUsername: Int32 = 10_175
    package static let proxyPassword: Int32 = 10_176
    package static let noProxy: Int32 = 10_177

    // TLS options.
    package static let keyPassword: Int32 = 10_026
    package static let sslVersion: Int32 = 32
    package static let caInfo: Int32 = 10_065
    package static let sslCertType: Int32 = 10_086
    package static let sslKeyType: Int32 = 10_088
    package static let caPath: Int32 = 10_097
    package static let pinnedPublicKey: Int32 = 10_230
    package static let sslCertBlob: Int32 = 40_291
    package static let sslKeyBlob: Int32 = 40_292
    package static let caInfoBlob: Int32 = 40_309
    /// `CURL_SSLVERSION_TLSv1_2` and `CURL_SSLVERSION_TLSv1_3`: the oldest version accepted.
    package static let sslVersionTLS12 = 6
    package static let sslVersionTLS13 = 7
    /// `CURL_BLOB_COPY`: libcurl copies a blob's bytes.
    package static let blobCopy: UInt32 = 1

    // Information about a done transfer (`CURLINFO_*`): a type base (`STRING` 0x100000, `LONG`
    // 0x200000, `OFF_T` 0x600000) plus a fixed index. The `_T` times are in microseconds.
    package static let infoSizeUpload: Int32 = 0x60_0000 + 7
    package static let infoSizeDownload: Int32 = 0x60_0000 + 8
    package static let infoHeaderSize: Int32 = 0x20_0000 + 11
    package static let infoRequestSize: Int32 = 0x20_0000 + 12
    package static let infoNumConnects: Int32 = 0x20_0000 + 26
    package static let infoPrimaryIP: Int32 = 0x10_0000 + 32
    package static let infoPrimaryPort: Int32 = 0x20_0000 + 40
    package static let infoLocalIP: Int32 = 0x10_0000 + 41
    package static let infoLocalPort: Int32 = 0x20_0000 + 42
    package static let infoHTTPVersion: Int32 = 0x20_0000 + 46
    package static let infoTotalTime: Int32 = 0x60_0000 + 50
    package static let infoNameLookupTime: Int32 = 0x60_0000 + 51
    package static let infoConnectTime: Int32 = 0x60_0000 + 52
    package static let infoPretransferTime: Int32 = 0x60_0000 + 53
    package static let infoStartTransferTime: Int32 = 0x60_0000 + 54
    package static let infoAppConnectTime: Int32 = 0x60_0000 + 56

    // Multi options and messages.
    package static let multiPipelining: Int32 = 3
    /// `CURLPIPE_MULTIPLEX`: several transfers share one HTTP/2 connection.
    package static let pipeMultiplex = 2
    package static let messageDone: Int32 = 1
  }
#endif
