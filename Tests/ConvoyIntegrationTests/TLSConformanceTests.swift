import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Trust a deployment can configure, against hypercorn serving httpbin over TLS with
/// certificates made by trustme at test time (``TLSServer``).
///
/// ``CurlTransport`` honours every ``TLSConfiguration`` setting. FoundationNetworking's
/// `URLSession` can honour none but the platform's own trust, so on Linux these tests check that
/// ``URLSessionTransport`` refuses each setting by name instead.
@Suite("TLS conformance", .timeLimit(.minutes(2)), .needs(.hypercorn))
struct TLSConformanceTests {
  // MARK: Every transport, platform trust

  @Test(arguments: TransportUnderTest.allCases)
  func refusesAServerSignedByAnAuthorityNobodyTrusts(_ kind: TransportUnderTest) async throws {
    var configuration = ServerConfiguration.local(port: TLSServer.shared.port)
    configuration.baseURL = TLSServer.shared.secureURL("")
    configuration.timeout = 300
    let connection = ServerConnection(configuration: configuration, transport: try kind.make())
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(TLSCall())
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return
    }
    #expect(failure.kind == .untrustedServerCertificate, "\(failure)")
    #expect(ErrorMessageProvider.category(of: error!) == .untrustedServer)
    #expect(
      ErrorMessageProvider.standard.message(for: error!)
        == ErrorMessageProvider.standardWording[.untrustedServer])
  }

  // MARK: URLSession on Linux refuses what it cannot honour

  #if canImport(FoundationNetworking)
    @Test func urlSessionOnLinuxRefusesEveryTrustSettingByName() throws {
      let pem = TLSMaterial.data(Data("-----BEGIN CERTIFICATE-----".utf8))
      let cases: [(TLSConfiguration, TLSConfigurationError.Setting)] = [
        (TLSConfiguration(trustedCertificates: [pem]), .trustedCertificates),
        (
          TLSConfiguration(trustedCertificates: [pem], trustsSystemCertificates: false),
          .trustedCertificates
        ),
        (TLSConfiguration(pinnedPublicKeyHashes: [TLSServer.shared.pin]), .pinnedPublicKeyHashes),
        (
          TLSConfiguration(clientIdentity: .pem(certificate: pem, privateKey: pem)), .clientIdentity
        ),
        (TLSConfiguration(minimumVersion: .tls13), .minimumVersion),
      ]
      for (tls, setting) in cases {
        let error = #expect(throws: TLSConfigurationError.self) {
          try URLSessionTransport(tls: tls)
        }
        #expect(error?.setting == setting)
        #expect(error?.reason.contains("FoundationNetworking") == true)
      }
      _ = try URLSessionTransport(tls: .platform)
    }
  #endif

  @Test func aMalformedPinOrNothingTrustedIsRefusedBeforeAnyConnection() {
    #expect(
      throws: TLSConfigurationError(
        setting: .pinnedPublicKeyHashes,
        reason: "\"not-a-pin\" is not the base64 of a 32-byte SHA-256 hash")
    ) {
      try TLSConfiguration(pinnedPublicKeyHashes: ["not-a-pin"]).validate()
    }
    let error = #expect(throws: TLSConfigurationError.self) {
      try TLSConfiguration(trustsSystemCertificates: false).validate()
    }
    #expect(error?.setting == .trustsSystemCertificates)
  }

  // MARK: curl honours every setting

  #if os(Linux)
    @Test func trustsAServerSignedByAnExtraAuthorityFromAFileOrMemory() async throws {
      let server = TLSServer.shared
      let pem = try Data(contentsOf: server.caFile)
      for tls in [
        TLSConfiguration(trustedCertificates: [.file(server.caFile)]),
        TLSConfiguration(trustedCertificates: [.data(pem)], trustsSystemCertificates: false),
      ] {
        let response = try await exchange(
          server.secureURL("/get"), over: try CurlTransport(tls: tls)
        ).get()
        #expect(response.statusCode == 200)
      }
    }

    @Test func acceptsAServerWhoseKeyMatchesOneOfSeveralPins() async throws {
      let server = TLSServer.shared
      let nextKey = Data(repeating: 7, count: 32).base64EncodedString()
      let tls = TLSConfiguration(
        trustedCertificates: [.file(server.caFile)],
        pinnedPublicKeyHashes: [nextKey, server.pin])
      let response = try await exchange(
        server.secureURL("/get"), over: try CurlTransport(tls: tls)
      ).get()
      #expect(response.statusCode == 200)
    }

    @Test func refusesAServerWhoseKeyMatchesNoPinAndNeverRetries() async throws {
      let server = TLSServer.shared
      let tls = TLSConfiguration(
        trustedCertificates: [.file(server.caFile)],
        pinnedPublicKeyHashes: [Data(repeating: 7, count: 32).base64EncodedString()])
      var configuration = ServerConfiguration.local(port: server.port)
      configuration.baseURL = server.secureURL("")
      configuration.retryPolicy = RetryPolicy(maximumRetries: 3, baseDelay: 0.01)
      let observer = RetryCounter()
      let connection = ServerConnection(
        configuration: configuration, transport: try CurlTransport(tls: tls),
        observers: [observer])
      let error = await #expect(throws: ServerConnectionError.self) {
        try await connection.execute(TLSCall())
      }
      guard case .transportFailed(let failure, _) = error else {
        Issue.record("expected a transport failure, got \(String(describing: error))")
        return
      }
      #expect(failure.kind == .pinnedKeyMismatch, "\(failure)")
      #expect(ErrorMessageProvider.category(of: error!) == .untrustedServer)
      #expect(observer.retries == 0)
    }

    @Test func showsAClientCertificateToAServerThatRequiresOne() async throws {
      let server = TLSServer.shared
      let url = server.secureURL("/get", port: server.mutualTLSPort)
      let accepted = TLSConfiguration(
        trustedCertificates: [.file(server.caFile)],
        clientIdentity: .pem(
          certificate: .file(server.clientCertificateFile),
          privateKey: .file(server.clientKeyFile)))
      #expect(
        try await exchange(url, over: try CurlTransport(tls: accepted)).get().statusCode == 200)

      // Python's ssl (hypercorn) sends its alert about the missing or unknown certificate, but
      // under TLS 1.3 the client has finished its handshake and is sending the request by then:
      // libcurl mostly sees the connection end (curl 18/55) rather than the alert, and can only
      // call it a dropped connection. When it does read the alert ("tlsv13 alert certificate
      // required", "tlsv1 alert unknown ca"), it is clientCertificateRequired.
      let refusals: Set<TransportFailure.Kind> = [
        .clientCertificateRequired, .secureConnectionFailed, .networkConnectionLost,
      ]
      var stranger = accepted
      stranger.clientIdentity = .pem(
        certificate: .file(server.strangerCertificateFile),
        privateKey: .file(server.strangerKeyFile))
      let none = TLSConfiguration(trustedCertificates: [.file(server.caFile)])
      for tls in [none, stranger] {
        let result = await exchange(url, over: try CurlTransport(tls: tls))
        guard case .failure(let failure) = result else {
          Issue.record("the server answered a client without an accepted certificate")
          continue
        }
        #expect(refusals.contains(failure.kind), "\(failure)")
      }
    }

    @Test func refusesAServerOlderThanTheMinimumVersion() async throws {
      let server = TLSServer.shared
      let url = server.secureURL("/get", port: server.tls12Port)
      var tls = TLSConfiguration(trustedCertificates: [.file(server.caFile)])
      tls.minimumVersion = .tls12
      #expect(try await exchange(url, over: try CurlTransport(tls: tls)).get().statusCode == 200)
      tls.minimumVersion = .tls13
      let result = await exchange(url, over: try CurlTransport(tls: tls))
      guard case .failure(let failure) = result else {
        Issue.record("a TLS 1.2 server was accepted under a TLS 1.3 minimum")
        return
      }
      #expect(failure.kind == .secureConnectionFailed, "\(failure)")
    }

    @Test func refusesAnUnreadableCertificateFileWhenBuilt() {
      let missing = URL(fileURLWithPath: "/nonexistent/convoy-ca.pem")
      let error = #expect(throws: TLSConfigurationError.self) {
        try CurlTransport(tls: TLSConfiguration(trustedCertificates: [.file(missing)]))
      }
      #expect(error?.setting == .trustedCertificates)
    }
  #endif
}

/// `GET /get`.
private struct TLSCall: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "/get" }
}

/// Counts the retries a connection reports.
private final class RetryCounter: EventObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  var retries: Int { lock.withLock { count } }

  func receive(_ event: ConvoyEvent) {
    guard event.name == .requestRetried else { return }
    lock.withLock { count += 1 }
  }
}
