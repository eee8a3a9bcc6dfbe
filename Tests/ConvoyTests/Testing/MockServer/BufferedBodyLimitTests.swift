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
  /// A runaway transfer showed in one run of three, so each transport is tried 20 times in a
  /// row.
  @Test(.serialized, arguments: MockServerTransportTests.Kind.allCases, 1...20)
  func anEndlessBodyAtFullSpeedStopsSoonAfterTheLimit(
    _ kind: MockServerTransportTests.Kind, run: Int
  ) async throws {
    let server = try await MockServer.started()
    // 4 GiB, chunked, as fast as the client takes it.
    server.route(
      .get, "/endless",
      answer: MockAnswer(body: .repeated(Data(repeating: 0x78, count: 65_536), count: 65_536)))
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
    try await server.waitUntil("the client closed", timeout: .seconds(60)) {
      $0.openConnections == 0
    }
    // What the server got out: the 1 MiB limit, what the sockets' buffers took, and a piece or
    // two more. Both transports stop within the piece that passed the limit (2-6 MiB sent, also
    // with both cores busy); on URLSession, FoundationNetworking's delegate queue once let
    // 100-490 MiB through in 4 runs of 20, and its cancel alone 4-112 MiB.
    let sent = server.statistics.bytesSent
    let bound = 16 << 20
    #expect(sent <= bound, "the server sent \(sent >> 20) MiB before the connection closed")
    await server.shutdown()
  }
}
