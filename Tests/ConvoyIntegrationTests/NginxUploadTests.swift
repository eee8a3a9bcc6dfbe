#if os(Linux)
  import Convoy
  import ConvoyTestSupport
  import Foundation
  import Testing

  /// Streamed uploads at a real nginx (``Nginx``): a large body arrives whole, and a body over
  /// nginx's `client_max_body_size` is refused by its head before it is sent.
  @Suite("Uploads to nginx", .timeLimit(.minutes(2)), .needs(.nginx))
  struct NginxUploadTests {
    struct Upload: RequestDescribing {
      typealias Response = DataResponse
      var path: String
      var body: RequestBody?
      var method: HTTPMethod { .post }
    }

    static func chunks(_ count: Int) -> AsyncStream<Data> {
      AsyncStream { continuation in
        for _ in 0..<count { continuation.yield(Data(repeating: 0x61, count: 64 << 10)) }
        continuation.finish()
      }
    }

    private func connection() throws -> ServerConnection {
      var configuration = ServerConfiguration.local(port: Nginx.shared.port)
      configuration.timeout = 300
      configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
      return ServerConnection(configuration: configuration, transport: try CurlTransport())
    }

    /// 64 MiB without a length: chunked, after `Expect: 100-continue`, every byte read by nginx.
    @Test func aLargeBodyOfUnknownLengthArrivesWhole() async throws {
      let before = try Nginx.shared.uploadLog().filter { $0.uri == "/uploads" }.count
      let answer = try await connection().execute(
        Upload(path: "uploads", body: .stream(Self.chunks(1_024))))
      #expect(answer.response.statusCode == 204)
      // nginx logs a request once it has read and dropped the whole body, which may be a moment
      // after its answer.
      let logged = try #require(
        try await poll {
          try Nginx.shared.uploadLog().filter { $0.uri == "/uploads" }.dropFirst(before).first
        })
      #expect(logged.status == 204)
      #expect(logged.requestLength >= 64 << 20)
    }

    /// 4 MiB announced against a 1 MiB limit: nginx answers 413 to the head alone, and the body
    /// is never sent (nginx read only the request's head).
    @Test func aBodyOverTheServersLimitIsRefusedBeforeItIsSent() async throws {
      let before = try Nginx.shared.uploadLog().filter { $0.uri == "/uploads/limited" }.count
      let error = await #expect(throws: ServerConnectionError.self) {
        try await connection().execute(
          Upload(path: "uploads/limited", body: .stream(Self.chunks(64), length: 4 << 20)))
      }
      #expect(error?.statusCode == 413)
      let logged = try #require(
        try await poll {
          try Nginx.shared.uploadLog().filter { $0.uri == "/uploads/limited" }.dropFirst(before)
            .first
        })
      #expect(logged.status == 413)
      #expect(logged.requestLength < 64 << 10)
    }
  }
#endif
