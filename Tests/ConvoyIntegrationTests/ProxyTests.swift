#if os(Linux)
  import Convoy
  import Foundation
  import Testing

  /// Proxies configured by the app on ``CurlTransport``, against proxy.py on loopback
  /// (``ProxyServer``). `URLSessionTransport` takes no ``ProxyConfiguration``:
  /// FoundationNetworking ignores `connectionProxyDictionary`.
  @Suite("Proxies", .timeLimit(.minutes(2)), .needs(.httpbin, .proxyPy, .hypercorn))
  struct ProxyTests {
    private func transport(
      port: Int, credentials: ProxyConfiguration.Credentials? = nil, bypassing: [String] = []
    ) throws -> CurlTransport {
      try CurlTransport(
        tls: TLSConfiguration(trustedCertificates: [.file(TLSServer.shared.caFile)]),
        proxy: ProxyConfiguration(
          kind: .http, host: "127.0.0.1", port: port, credentials: credentials,
          bypassing: bypassing))
    }

    @Test func sendsPlainHTTPThroughTheProxyAndBypassesListedHosts() async throws {
      let url = HTTPBin.shared.url("/get")
      let proxied = await exchange(url, over: try transport(port: ProxyServer.shared.port))
      #expect(try proxied.get().statusCode == 200)
      // Nobody listens there: the call only succeeds when it does not go through the proxy.
      let closed = try closedLoopbackPort()
      let failure = await exchange(url, over: try transport(port: closed))
      guard case .failure(let error) = failure else {
        Issue.record("a call through a proxy nobody runs succeeded: the proxy was not used")
        return
      }
      #expect(error.kind == .cannotConnectToHost, "\(error)")
      let direct = await exchange(url, over: try transport(port: closed, bypassing: ["127.0.0.1"]))
      #expect(try direct.get().statusCode == 200)
    }

    @Test func tunnelsHTTPSThroughCONNECT() async throws {
      let response = try await exchange(
        TLSServer.shared.secureURL("/get"), over: try transport(port: ProxyServer.shared.port)
      ).get()
      #expect(response.statusCode == 200)
    }

    @Test func sendsCredentialsToAProxyThatRequiresThem() async throws {
      let port = ProxyServer.shared.authenticatingPort
      let credentials = ProxyConfiguration.Credentials(
        user: ProxyServer.user, password: ProxyServer.password)
      let plain = HTTPBin.shared.url("/get")
      let secure = TLSServer.shared.secureURL("/get")
      #expect(try await exchange(plain, over: try transport(port: port)).get().statusCode == 407)
      let authenticated = try transport(port: port, credentials: credentials)
      #expect(try await exchange(plain, over: authenticated).get().statusCode == 200)
      #expect(try await exchange(secure, over: authenticated).get().statusCode == 200)
      let refused = await exchange(secure, over: try transport(port: port))
      guard case .failure(let failure) = refused else {
        Issue.record("a CONNECT without credentials got through")
        return
      }
      #expect(failure.kind == .proxyRefused, "\(failure)")
      #expect(!failure.detail.contains(ProxyServer.password))
    }

    @Test func wrongProxyCredentialsReadTheSameOverPlainHTTPAndThroughATunnel() async throws {
      let wrong = ProxyConfiguration.Credentials(user: ProxyServer.user, password: "wrong")
      let transport = try transport(port: ProxyServer.shared.authenticatingPort, credentials: wrong)
      var messages: [ErrorMessage?] = []
      for base in [HTTPBin.shared.url("/"), TLSServer.shared.secureURL("/")] {
        var configuration = ServerConfiguration.local(port: 1)
        configuration.baseURL = base
        let connection = ServerConnection(configuration: configuration, transport: transport)
        let error = await #expect(throws: ServerConnectionError.self) {
          try await connection.execute(DataCall(path: "get"))
        }
        #expect(error.map(ErrorMessageProvider.category(of:)) == .proxyRefused, "\(base)")
        messages.append(error.flatMap(ErrorMessageProvider.standard.message(for:)))
      }
      #expect(messages[0] == messages[1])
      #expect(messages[0]?.text.contains("proxy") == true)
    }

    @Test func goesThroughASOCKS5ProxyWithItsCredentials() async throws {
      let ca = TLSConfiguration(trustedCertificates: [.file(TLSServer.shared.caFile)])
      func socks(_ password: String) throws -> CurlTransport {
        try CurlTransport(
          tls: ca,
          proxy: ProxyConfiguration(
            kind: .socks5, host: "127.0.0.1", port: ProxyServer.shared.socksPort,
            credentials: .init(user: ProxyServer.user, password: password)))
      }
      let accepted = try socks(ProxyServer.password)
      let plain = HTTPBin.shared.url("/get")
      #expect(try await exchange(plain, over: accepted).get().statusCode == 200)
      let secure = TLSServer.shared.secureURL("/get")
      #expect(try await exchange(secure, over: accepted).get().statusCode == 200)
      let refused = await exchange(plain, over: try socks("wrong"))
      guard case .failure(let failure) = refused else {
        Issue.record("the SOCKS5 proxy let a wrong password through")
        return
      }
      #expect(failure.kind == .proxyRefused, "\(failure)")
    }

    @Test func neverShowsTheProxyPassword() {
      let proxy = ProxyConfiguration(
        kind: .socks5, host: "proxy.example", port: 1080,
        credentials: .init(user: "app", password: "s3cret"))
      #expect(!proxy.description.contains("s3cret"))
      #expect(proxy.description == "socks5://proxy.example:1080 as app:<redacted>")
    }
  }

  private struct DataCall: RequestDescribing {
    typealias Response = DataResponse
    var method: HTTPMethod { .get }
    var path: String
  }
#endif
