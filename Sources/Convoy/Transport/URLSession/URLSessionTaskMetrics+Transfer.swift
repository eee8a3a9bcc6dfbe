#if !canImport(FoundationNetworking)
  import Foundation

  extension TransferMetrics {
    /// Fills the phases, header sizes, protocol, connection reuse and addresses from the last
    /// network transaction of `taskMetrics`; Apple platforms only (FoundationNetworking never
    /// delivers task metrics).
    mutating func fill(from taskMetrics: URLSessionTaskMetrics) {
      guard
        let transaction = taskMetrics.transactionMetrics.last(where: {
          $0.resourceFetchType == .networkLoad
        })
      else { return }
      let start = startDate
      func offset(_ date: Date?) -> TimeInterval? {
        date.map { max(0, $0.timeIntervalSince(start)) }
      }
      let isReused = transaction.isReusedConnection
      isReusedConnection = isReused
      if !isReused {
        domainLookupEnd = offset(transaction.domainLookupEndDate)
        // URLSession's connect phase ends after the TLS handshake; the TCP connection was up when
        // the handshake began.
        connectEnd = offset(transaction.secureConnectionStartDate ?? transaction.connectEndDate)
        secureConnectionEnd = offset(transaction.secureConnectionEndDate)
      }
      requestEnd = offset(transaction.requestStartDate)
      responseStart = offset(transaction.responseStartDate)
      requestHeaderBytes = Int(transaction.countOfRequestHeaderBytesSent)
      responseHeaderBytes = Int(transaction.countOfResponseHeaderBytesReceived)
      protocolVersion = transaction.networkProtocolName.map(Self.protocolName)
      #if !os(watchOS)
        localAddress = transaction.localAddress
        localPort = transaction.localPort
        remoteAddress = transaction.remoteAddress
        remotePort = transaction.remotePort
      #endif
    }

    /// ALPN names (`h2`, `http/1.1`, `h3`) as status lines spell them.
    private static func protocolName(_ alpn: String) -> String {
      switch alpn.lowercased() {
      case "h2": "HTTP/2"
      case "h3": "HTTP/3"
      case "http/1.1": "HTTP/1.1"
      case "http/1.0": "HTTP/1.0"
      default: alpn
      }
    }
  }
#endif
