import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A buffered call's body limit stops an endless body as it arrives, on every transport: the
/// server is left with most of its body unsent, rather than the client holding it all first.
@Suite struct BufferedBodyLimitTests {
  /// Pieces a server's body stream handed out, counted as the server pulls them.
  private final class PulledPieces: @unchecked Sendable {
    private let lock = NSLock()
    private var pulled = 0
    var count: Int { lock.withLock { pulled } }
    func next() { lock.withLock { pulled += 1 } }
  }

  @Test(arguments: MockServerTransportTests.Kind.allCases)
  func anEndlessBodyIsStoppedAtTheLimitNotAfterIt(_ kind: MockServerTransportTests.Kind)
    async throws
  {
    let server = try await MockServer.started()
    let pulled = PulledPieces()
    let piece = Data(repeating: UInt8(ascii: "x"), count: 65_536)
    // 512 MiB on offer, one 64 KiB piece at a time, only as fast as the client takes them.
    server.route(.get, "/endless") { _ in
      let pieces = AsyncStream<Data>(unfolding: {
        pulled.next()
        return piece
      }).prefix(8_192)
      return MockAnswer(body: .stream(pieces))
    }
    var configuration = ServerConfiguration(environment: .local, baseURL: server.baseURL)
    configuration.responseLimits = ResponseLimits(maximumBodySize: 1 << 20)
    configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
    let connection = ServerConnection(
      configuration: configuration, transport: try kind.transport())
    await #expect {
      _ = try await connection.execute(MockServerTransportTests.Get(path: "endless"))
    } throws: { error in
      ErrorMessageProvider.category(of: error) == .responseTooLarge
    }
    // The server stops pulling once the client has gone: what it pulled is the limit plus what
    // the sockets' buffers held, far from the 8,192 pieces an answer read whole would take.
    try await server.waitUntil("the client closed", timeout: .seconds(60)) {
      $0.openConnections == 0
    }
    #expect(pulled.count < 2_048, "the server sent \(pulled.count) pieces of 64 KiB")
    await server.shutdown()
  }
}
