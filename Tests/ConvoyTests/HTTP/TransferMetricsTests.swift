import Convoy
import Foundation
import Testing

/// `TransferMetrics` keeps the fields only some transports know out of line, shared by copies:
/// it must still behave as a plain value.
@Suite struct TransferMetricsTests {
  private let start = Date(timeIntervalSince1970: 1_000)

  @Test func aCopyKeepsItsDetailsWhenTheOriginalChanges() {
    var original = TransferMetrics(
      startDate: start, duration: 1, bytesReceived: 10, bytesSent: 0, connectEnd: 0.2,
      protocolVersion: "HTTP/1.1", remoteAddress: "127.0.0.1")
    let copy = original
    original.connectEnd = 0.5
    original.remoteAddress = nil
    #expect(copy.connectEnd == 0.2)
    #expect(copy.remoteAddress == "127.0.0.1")
    #expect(original.connectEnd == 0.5)
    #expect(original.remoteAddress == nil)
    #expect(original.protocolVersion == "HTTP/1.1")
    #expect(copy != original)
  }

  @Test func detailsSetOneByOneEqualDetailsGivenAtOnce() {
    var built = TransferMetrics(startDate: start, duration: 1, bytesReceived: 10, bytesSent: 2)
    built.domainLookupEnd = 0.1
    built.responseStart = 0.3
    built.isReusedConnection = false
    built.localPort = 4_000
    let given = TransferMetrics(
      startDate: start, duration: 1, bytesReceived: 10, bytesSent: 2, domainLookupEnd: 0.1,
      responseStart: 0.3, isReusedConnection: false, localPort: 4_000)
    #expect(built == given)
    #expect(built.hashValue == given.hashValue)
  }

  @Test func detailsSetAndClearedAgainEqualNoDetails() {
    let plain = TransferMetrics(startDate: start, duration: 1, bytesReceived: 10, bytesSent: 0)
    var touched = plain
    touched.requestHeaderBytes = 80
    touched.requestHeaderBytes = nil
    #expect(touched == plain)
    #expect(Set([touched, plain]).count == 1)
  }
}
