#if os(Linux)
  import Foundation

  /// What libcurl knows about a done transfer (`curl_easy_getinfo`), read into
  /// ``TransferMetrics`` before the easy handle is recycled.
  struct CurlTransferInfo {
    let library: CurlLibrary
    let easy: CurlLibrary.Easy

    /// Fills the phases, header sizes, protocol, connection reuse and addresses of `metrics`.
    ///
    /// libcurl's times are cumulative from the transfer's start, the same start as Convoy's
    /// ``TransferMetrics/startDate``. A phase libcurl skipped (a reused connection has no lookup,
    /// connect or TLS handshake) reads 0 and is reported as `nil`.
    func fill(_ metrics: inout TransferMetrics) {
      let reused = long(CurlConstant.infoNumConnects).map { $0 == 0 }
      metrics.isReusedConnection = reused
      let isNew = reused == false
      metrics.domainLookupEnd = isNew ? seconds(CurlConstant.infoNameLookupTime) : nil
      metrics.connectEnd = isNew ? seconds(CurlConstant.infoConnectTime) : nil
      metrics.secureConnectionEnd = isNew ? seconds(CurlConstant.infoAppConnectTime) : nil
      metrics.requestEnd = seconds(CurlConstant.infoPretransferTime, keepingZero: true)
      metrics.responseStart = seconds(CurlConstant.infoStartTransferTime)
      metrics.responseHeaderBytes = long(CurlConstant.infoHeaderSize)
      // libcurl counts the request it wrote, including a body sent in the same buffer as the head.
      metrics.requestHeaderBytes = long(CurlConstant.infoRequestSize).map {
        $0 > metrics.bytesSent ? $0 - metrics.bytesSent : $0
      }
      metrics.protocolVersion = long(CurlConstant.infoHTTPVersion).flatMap(Self.protocolName)
      metrics.remoteAddress = string(CurlConstant.infoPrimaryIP)
      metrics.remotePort = long(CurlConstant.infoPrimaryPort).flatMap { $0 > 0 ? $0 : nil }
      metrics.localAddress = string(CurlConstant.infoLocalIP)
      metrics.localPort = long(CurlConstant.infoLocalPort).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `CURL_HTTP_VERSION_1_0` 1, `_1_1` 2, `_2_0` 3, `_3` 30.
    static func protocolName(_ version: Int) -> String? {
      switch version {
      case 1: "HTTP/1.0"
      case 2: "HTTP/1.1"
      case 3: "HTTP/2"
      case 30: "HTTP/3"
      default: nil
      }
    }

    /// A C `long`, which is 64 bits on the LP64 platforms Convoy runs curl on.
    private func long(_ info: Int32) -> Int? {
      var value = 0
      let code = withUnsafeMutableBytes(of: &value) {
        library.easyGetInfo(easy, info, $0.baseAddress!)
      }
      return code == 0 ? value : nil
    }

    private func seconds(_ info: Int32, keepingZero: Bool = false) -> TimeInterval? {
      var microseconds: Int64 = 0
      let code = withUnsafeMutableBytes(of: &microseconds) {
        library.easyGetInfo(easy, info, $0.baseAddress!)
      }
      guard code == 0, microseconds > 0 || (keepingZero && microseconds == 0) else { return nil }
      return TimeInterval(microseconds) / 1_000_000
    }

    private func string(_ info: Int32) -> String? {
      var pointer: UnsafePointer<CChar>?
      let code = withUnsafeMutableBytes(of: &pointer) {
        library.easyGetInfo(easy, info, $0.baseAddress!)
      }
      guard code == 0, let pointer else { return nil }
      let text = String(cString: pointer)
      return text.isEmpty ? nil : text
    }
  }
#endif
