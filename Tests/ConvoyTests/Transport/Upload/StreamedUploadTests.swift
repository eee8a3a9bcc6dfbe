import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Streamed request bodies on the transports, against a `MockServer`: what arrives on the wire.
@Suite(.timeLimit(.minutes(2))) struct StreamedUploadTests {
  struct Upload: RequestDescribing {
    typealias Response = DataResponse
    var body: RequestBody?
    var method: HTTPMethod { .post }
    var path: String { "uploads" }
  }

  /// `count` chunks of `size` bytes, each byte its chunk's number.
  static func chunks(_ count: Int, of size: Int) -> AsyncStream<Data> {
    AsyncStream { continuation in
      for index in 0..<count {
        continuation.yield(Data(repeating: UInt8(index % 256), count: size))
      }
      continuation.finish()
    }
  }

  static func expectedBytes(_ count: Int, of size: Int) -> Data {
    var data = Data()
    for index in 0..<count { data.append(Data(repeating: UInt8(index % 256), count: size)) }
    return data
  }

  /// Sends `body` to `server` over `transport`, expecting the call to fail without an answer.
  func transportFailure(
    sending body: RequestBody, to server: MockServer, over transport: any HTTPTransport
  ) async -> TransportFailure? {
    let error = await #expect(throws: ServerConnectionError.self) {
      try await connection(to: server, transport: transport).execute(Upload(body: body))
    }
    guard case .transportFailed(let failure, _) = error else {
      Issue.record("expected a transport failure, got \(String(describing: error))")
      return nil
    }
    return failure
  }

  func connection(to server: MockServer, transport: any HTTPTransport) -> ServerConnection {
    var configuration = ServerConfiguration(environment: .local, baseURL: server.baseURL)
    configuration.timeout = 300
    configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
    return ServerConnection(configuration: configuration, transport: transport)
  }

  #if os(Linux)
    @Test func aSequenceOfUnknownLengthIsSentChunked() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let body = RequestBody.stream(Self.chunks(40, of: 10_000), contentType: "video/mp4")
      _ = try await connection(to: server, transport: try CurlTransport()).execute(
        Upload(body: body))
      let request = try await server.takeRequest()
      #expect(request.headers["Transfer-Encoding"]?.lowercased() == "chunked")
      #expect(request.headers["Content-Length"] == nil)
      // The server may refuse before the body is sent: MockServer answers 100 Continue.
      #expect(request.headers["Expect"] == "100-continue")
      #expect(request.headers["Content-Type"] == "video/mp4")
      #expect(request.isComplete)
      #expect(request.body == Self.expectedBytes(40, of: 10_000))
      await server.shutdown()
    }

    @Test func aKnownLengthIsSentAsContentLength() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let body = RequestBody.stream(Self.chunks(3, of: 1_000), length: 3_000)
      _ = try await connection(to: server, transport: try CurlTransport()).execute(
        Upload(body: body))
      let request = try await server.takeRequest()
      #expect(request.headers["Content-Length"] == "3000")
      #expect(request.headers["Transfer-Encoding"] == nil)
      #expect(request.body == Self.expectedBytes(3, of: 1_000))
      await server.shutdown()
    }

    /// The writer is slower than the network, so libcurl finds nothing ready again and again:
    /// the transfer pauses its sending side and goes on when the next chunk is in.
    @Test func aSlowWriterPausesTheTransferAndItsTrailersFollowTheBody() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let body = RequestBody.writer(contentType: "text/csv") { writer in
        for row in 0..<20 {
          try await writer.write(Data("\(row),row \(row)\n".utf8))
          try await Task.sleep(for: .milliseconds(5))
        }
        writer.setTrailers(["X-Row-Count": "20"])
      }
      _ = try await connection(to: server, transport: try CurlTransport()).execute(
        Upload(body: body))
      let request = try await server.takeRequest()
      let expected = (0..<20).map { "\($0),row \($0)\n" }.joined()
      #expect(String(decoding: request.body, as: UTF8.self) == expected)
      #expect(request.trailers["X-Row-Count"] == "20")
      await server.shutdown()
    }

    @Test func aSourceThatFailsEndsTheCallAndTheServerNeverGetsAWholeRequest() async throws {
      struct CameraStopped: Error {}
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let body = RequestBody.writer { writer in
        try await writer.write(Data(repeating: 1, count: 50_000))
        throw CameraStopped()
      }
      let failure = try #require(
        await transportFailure(sending: body, to: server, over: try CurlTransport()))
      #expect(failure.kind == .requestBodyFailed)
      #expect(failure.detail.contains("CameraStopped"))
      let error = ServerConnectionError.transportFailed(failure, ErrorContext())
      #expect(ErrorMessageProvider.category(of: error) == .uploadSourceFailed)
      let request = try await server.takeRequest()
      #expect(!request.isComplete)
      await server.shutdown()
    }

    @Test func aBodyShorterThanItsLengthIsNeverTakenAsWhole() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let body = RequestBody.stream(Self.chunks(2, of: 1_000), length: 5_000)
      let failure = try #require(
        await transportFailure(sending: body, to: server, over: try CurlTransport()))
      #expect(failure.kind == .requestBodyFailed)
      #expect(failure.detail.contains("announced 5000 bytes and produced 2000"))
      let request = try await server.takeRequest()
      #expect(!request.isComplete)
      await server.shutdown()
    }

    /// Cancelled once part of the body went out: the call ends as cancelled, the writer is told
    /// to stop, and the server is left with a request it knows was cut short.
    @Test func cancellingAHalfSentUploadStopsTheWriterAndTheServerSeesItCutShort() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let (started, didStart) = AsyncStream<Void>.makeStream()
      let (stopped, didStop) = AsyncStream<Void>.makeStream()
      let body = RequestBody.writer { writer in
        try await writer.write(Data(repeating: 1, count: 100_000))
        do {
          // Never ends by itself: only the cancellation ends it.
          while true { try await writer.write(Data(repeating: 2, count: 100_000)) }
        } catch {
          didStop.yield()
          throw error
        }
      }
      let connection = connection(to: server, transport: try CurlTransport())
      let call = Task {
        try await connection.execute(Upload(body: body)) { progress in
          if progress.completedBytes > 0 { didStart.yield() }
        }
      }
      var iterator = started.makeAsyncIterator()
      _ = await iterator.next()
      call.cancel()
      let error = await #expect(throws: (any Error).self) { try await call.value }
      #expect(error?.isCancellation == true)
      let request = try await server.takeRequest()
      #expect(!request.isComplete)
      // The writer's next write threw: waiting for it to say so ends only if it did.
      var stops = stopped.makeAsyncIterator()
      _ = await stops.next()
      await server.shutdown()
    }

    /// The server refuses by the head, answering the `Expect: 100-continue` with a 413: of a
    /// 64 MiB body only what was read ahead is ever produced, and none of it is sent.
    @Test func aServerThatRefusesByTheHeadSavesTheUpload() async throws {
      let server = try await MockServer.started()
      var refusal = MockAnswer.status(413)
      refusal.answersBeforeBody = true
      server.enqueue(refusal)
      let produced = Locked(0)
      let body = RequestBody.writer { writer in
        for _ in 0..<1_024 {
          try await writer.write(Data(repeating: 3, count: 64 << 10))
          produced.withLock { $0 += 64 << 10 }
        }
      }
      let error = await #expect(throws: ServerConnectionError.self) {
        try await connection(to: server, transport: try CurlTransport()).execute(
          Upload(body: body))
      }
      #expect(error?.statusCode == 413)
      #expect(produced.current < 4 << 20)
      // It asked first; libcurl also stops a body it already sends when a refusal arrives.
      #expect(try await server.takeRequest().headers["Expect"] == "100-continue")
      await server.shutdown()
    }

    /// A file body counts what libcurl read of it: a server that answers before the body (here
    /// a 200 instead of `100 Continue`) stops the upload after what the socket's buffers took,
    /// and the metrics say so instead of the file's size.
    @Test func aFileBodyTheServerNeverReadIsNotCountedAsSent() async throws {
      let server = try await MockServer.started()
      var early = MockAnswer.status(200)
      early.answersBeforeBody = true
      server.enqueue(early)
      let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("convoy-unsent-\(UUID().uuidString)")
      try Data(count: 32 << 20).write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      let answer = try await connection(to: server, transport: try CurlTransport()).execute(
        Upload(body: .file(file)))
      let sent = try #require(answer.metrics?.lastTransfer?.bytesSent)
      #expect(sent < 16 << 20)
      await server.shutdown()
    }

    @Test func aChunkedAnswersTrailersComeAtTheEndOfTheStreamNotInItsHead() async throws {
      let server = try await MockServer.started()
      server.enqueue(
        MockAnswer(body: .bytes(Data("the body".utf8)), trailers: ["X-Checksum": "abc"]))
      let stream = try await connection(to: server, transport: try CurlTransport()).stream(
        Upload(body: .text("ask")))
      var body = Data()
      for try await piece in stream.body { body.append(piece) }
      #expect(body == Data("the body".utf8))
      #expect(stream.body.trailers["X-Checksum"] == "abc")
      #expect(stream.head.headers["X-Checksum"] == nil)
      await server.shutdown()
    }

    /// An upload is an operation like any other: a step of a chain, counted in the job's
    /// progress in bytes as a download is.
    @Test func anUploadInAChainCountsItsBytesInTheJobsProgress() async throws {
      struct Built: Job {
        let make: @Sendable (ServerConnection) -> ResultOperation<Int>
        func makeOperation(on connection: ServerConnection) -> ResultOperation<Int> {
          make(connection)
        }
      }
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      server.enqueue(.text("done"))
      let connection = connection(to: server, transport: try CurlTransport())
      let updates = Locked<[JobProgress]>([])
      let size = 40 * 10_000
      let count = try await connection.run(
        Built { connection in
          connection.operation(
            for: Upload(body: .stream(Self.chunks(40, of: 10_000), length: Int64(size)))
          )
          .then { _ in connection.operation(for: Upload(body: .text("next"))) }
          .map { $0.data.count }
        },
        progress: { progress in updates.withLock { $0.append(progress) } })
      #expect(count == 4)
      #expect(updates.current.last?.transferredBytes == Int64(size))
      #expect(updates.current.last?.expectedBytes == Int64(size))
      #expect(try await server.takeRequest().body == Self.expectedBytes(40, of: 10_000))
      await server.shutdown()
    }

    /// The job's token stops an upload half-sent, as it stops a download: the job completes
    /// once, as cancelled, and the server is left with a request cut short.
    @Test func theJobsTokenStopsAHalfSentUpload() async throws {
      struct Endless: Job {
        func makeOperation(on connection: ServerConnection) -> ResultOperation<DataResponse> {
          connection.operation(
            for: Upload(
              body: .writer { writer in
                while true { try await writer.write(Data(repeating: 5, count: 100_000)) }
              }))
        }
      }
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      let connection = connection(to: server, transport: try CurlTransport())
      let (moved, didMove) = AsyncStream<Void>.makeStream()
      let (ended, didEnd) = AsyncStream<Result<DataResponse, any Error>>.makeStream()
      let token = connection.run(
        Endless(), progress: { if $0.transferredBytes > 0 { didMove.yield() } },
        completion: { didEnd.yield($0) })
      var movedIterator = moved.makeAsyncIterator()
      _ = await movedIterator.next()
      token.cancel()
      var endings = ended.makeAsyncIterator()
      let ending = await endings.next()
      guard case .failure(let error)? = ending else {
        Issue.record("expected the job to fail as cancelled, got \(String(describing: ending))")
        return
      }
      #expect(error.isCancellation)
      #expect(try await !server.takeRequest().isComplete)
      await server.shutdown()
    }

    @Test func aRestartableBodyIsSentWholeAgainAfterA307() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(307, headers: ["Location": "/uploads/again"]))
      server.enqueue(.status(204))
      let body = RequestBody.stream(.restartable { Self.chunks(5, of: 2_000) })
      _ = try await connection(to: server, transport: try CurlTransport()).execute(
        Upload(body: body))
      let first = try await server.takeRequest()
      let second = try await server.takeRequest()
      #expect(second.path == "/uploads/again")
      #expect(first.body == Self.expectedBytes(5, of: 2_000))
      #expect(second.body == first.body)
      await server.shutdown()
    }
  #endif

  #if canImport(FoundationNetworking)
    /// FoundationNetworking stops the process at an answer with trailers: the request does not
    /// ask for them.
    @Test func urlSessionOnLinuxAsksForNoTrailers() async throws {
      let server = try await MockServer.started()
      server.enqueue(.status(204))
      struct AskingForTrailers: RequestDescribing {
        typealias Response = DataResponse
        var method: HTTPMethod { .get }
        var path: String { "trailers" }
        var headers: HTTPHeaders { ["TE": "trailers"] }
      }
      _ = try await connection(to: server, transport: URLSessionTransport()).execute(
        AskingForTrailers())
      #expect(try await server.takeRequest().headers["TE"] == nil)
      await server.shutdown()
    }
  #endif

  @Test func urlSessionRefusesAStreamedBodyByName() async throws {
    let server = try await MockServer.started()
    server.enqueue(.status(204))
    let body = RequestBody.stream(Self.chunks(1, of: 10))
    let failure = try #require(
      await transportFailure(sending: body, to: server, over: URLSessionTransport()))
    #expect(failure.kind == .notSupportedByTransport)
    #expect(failure.detail.contains("CurlTransport"))
    #expect(server.requests.isEmpty)
    await server.shutdown()
  }
}
