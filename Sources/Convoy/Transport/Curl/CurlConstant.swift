#if os(Linux)
  /// The numeric values from `curl/curl.h` and `curl/multi.h` that Convoy uses.
  ///
  /// They are part of libcurl's ABI and never change once released: an option's number is its type
  /// base (`LONG` 0, `OBJECTPOINT` 10000, `FUNCTIONPOINT` 20000, `OFF_T` 30000) plus a fixed
  /// index.
  enum CurlConstant {
    static let globalAll = 3
    static let versionFirst: Int32 = 0

    // Easy options.
    static let writeData: Int32 = 10_001
    static let url: Int32 = 10_002
    static let readData: Int32 = 10_009
    static let writeFunction: Int32 = 20_011
    static let readFunction: Int32 = 20_012
    static let lowSpeedLimit: Int32 = 19
    static let lowSpeedTime: Int32 = 20
    static let httpHeader: Int32 = 10_023
    static let headerData: Int32 = 10_029
    static let customRequest: Int32 = 10_036
    static let noBody: Int32 = 44
    static let post: Int32 = 47
    static let followLocation: Int32 = 52
    static let sslVerifyPeer: Int32 = 64
    static let headerFunction: Int32 = 20_079
    static let sslVerifyHost: Int32 = 81
    static let httpVersion: Int32 = 84
    static let noSignal: Int32 = 99
    static let acceptEncoding: Int32 = 10_102
    static let postFieldSizeLarge: Int32 = 30_120
    static let postFields: Int32 = 10_015
    static let connectTimeoutMilliseconds: Int32 = 156
    static let pipeWait: Int32 = 237
    static let suppressConnectHeaders: Int32 = 265

    /// `CURL_HTTP_VERSION_2TLS`: HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
    static let httpVersion2OverTLS = 4

    /// A read callback's return value that aborts the transfer (`CURL_READFUNC_ABORT`).
    static let readAbort = 0x1000_0000

    // Multi options and messages.
    static let multiPipelining: Int32 = 3
    /// `CURLPIPE_MULTIPLEX`: several transfers share one HTTP/2 connection.
    static let pipeMultiplex = 2
    static let messageDone: Int32 = 1
  }
#endif
