import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Failures that used to borrow another family's words now say what happened.
@Suite struct CategoryWordingTests {
  private static let context = ErrorContext(method: .get, url: URL(string: "http://h.example/")!)

  private static func text(_ error: any Error) -> String? {
    ErrorMessageProvider.standard.message(for: error)?.text
  }

  @Test func aPlainHTTPProxysRefusalReadsAsTheRefusedTunnelDoesNamingTheProxy() {
    let plain = ServerConnectionError.httpError(407, Self.context)
    let tunnel = ServerConnectionError.transportFailed(
      TransportFailure(kind: .proxyRefused, detail: "curl 56: CONNECT tunnel failed, response 407"),
      Self.context)
    #expect(ErrorMessageProvider.category(of: plain) == .proxyRefused)
    #expect(ErrorMessageProvider.category(of: tunnel) == .proxyRefused)
    #expect(Self.text(plain) == Self.text(tunnel))
    #expect(Self.text(plain)?.contains("proxy") == true)
  }

  @Test func aReaderThatFellBehindIsToldSoNotSomethingWentWrong() {
    let error = ServerConnectionError.transportFailed(
      TransportFailure(kind: .readerTooSlow, detail: "d"), Self.context)
    #expect(ErrorMessageProvider.category(of: error) == .answerReadTooSlowly)
    #expect(
      Self.text(error)
        == "The app read the server's answer too slowly, so it was stopped. Please try again.")
  }

  @Test func aServerWantingAClientCertificateSaysSoNotThatItIsUnreachable() {
    let failure = ServerConnectionError.transportFailed(
      TransportFailure(kind: .clientCertificateRequired, detail: "d"), Self.context)
    #expect(ErrorMessageProvider.category(of: failure) == .clientCertificateRequired)
    #expect(Self.text(failure)?.contains("certificate from this device") == true)
    for code in [URLError.Code.clientCertificateRequired, .clientCertificateRejected] {
      #expect(ErrorMessageProvider.category(of: URLError(code)) == .clientCertificateRequired)
    }
  }

  @Test func aClientCertificateRefusalIsNeverRetried() {
    #expect(!RetryPolicy.transientFailures.contains(.clientCertificateRequired))
  }
}
