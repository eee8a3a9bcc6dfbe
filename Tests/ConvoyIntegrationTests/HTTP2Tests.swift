#if os(Linux)
  import Convoy
  import Foundation
  import Testing

  /// HTTP/2 for real, against hypercorn over TLS (``TLSServer``): the answer says which protocol
  /// carried it, and concurrent calls share one connection, as the server itself reports.
  ///
  /// Only ``CurlTransport`` runs here: FoundationNetworking's `URLSession` cannot trust the test
  /// CA (``TLSConformanceTests`` checks that it refuses to try), and it does not report the
  /// protocol of an answer.
  @Suite("HTTP/2", .timeLimit(.minutes(2)), .needs(.httpbin, .hypercorn))
  struct HTTP2Tests {
    /// What `GET /connection` reports: the protocol and the client port, which names the TCP
    /// connection the request came on.
    struct Connection: Decodable, Hashable {
      var httpVersion: String
      var clientPort: Int

      enum CodingKeys: String, CodingKey {
        case httpVersion = "http_version"
        case clientPort = "client_port"
      }
    }

    private func transport() throws -> CurlTransport {
      try CurlTransport(
        tls: TLSConfiguration(trustedCertificates: [.file(TLSServer.shared.caFile)]))
    }

    private func connection(port: Int, over transport: CurlTransport) async throws -> Connection {
      let response = try await exchange(
        TLSServer.shared.secureURL("/connection", port: port), over: transport
      ).get()
      return try JSONDecoder().decode(Connection.self, from: response.data)
    }

    @Test func theAnswerRecordsTheProtocolThatCarriedIt() async throws {
      let transport = try transport()
      let server = TLSServer.shared
      let h2 = try await exchange(server.secureURL("/get"), over: transport).get()
      #expect(h2.head.httpVersion == "HTTP/2")
      let h1 = try await exchange(server.secureURL("/get", port: server.http1Port), over: transport)
        .get()
      #expect(h1.head.httpVersion == "HTTP/1.1")
      let plain = try await exchange(HTTPBin.shared.url("/get"), over: transport).get()
      #expect(plain.head.httpVersion == "HTTP/1.1")
    }

    @Test func concurrentCallsShareOneConnection() async throws {
      let transport = try transport()
      let port = TLSServer.shared.port
      let seen = try await withThrowingTaskGroup(of: Connection.self) { group in
        for _ in 0..<20 {
          group.addTask { try await connection(port: port, over: transport) }
        }
        return try await group.reduce(into: [Connection]()) { $0.append($1) }
      }
      #expect(seen.count == 20)
      #expect(Set(seen.map(\.httpVersion)) == ["2"])
      #expect(Set(seen.map(\.clientPort)).count == 1, "\(Set(seen.map(\.clientPort)))")
    }

    @Test func aServerThatSpeaksOnlyHTTP1StillAnswersEveryCall() async throws {
      let transport = try transport()
      let port = TLSServer.shared.http1Port
      let seen = try await withThrowingTaskGroup(of: Connection.self) { group in
        for _ in 0..<8 {
          group.addTask { try await connection(port: port, over: transport) }
        }
        return try await group.reduce(into: [Connection]()) { $0.append($1) }
      }
      #expect(seen.count == 8)
      #expect(Set(seen.map(\.httpVersion)) == ["1.1"])
    }
  }
#endif
