import Convoy
import ConvoyTesting
import Foundation
import Testing

/// What a `MockServer` puts on the wire, read by a raw socket so nothing tidies it up.
@Suite struct MockServerWireTests {
  private func exchange(
    _ answer: MockAnswer, request: String = "GET /thing HTTP/1.1\r\nHost: x\r\n\r\n"
  ) async throws -> (text: String, reset: Bool, server: MockServer) {
    let server = try await MockServer.started()
    server.enqueue(answer.closingConnection())
    let client = try RawHTTPClient(port: server.port)
    client.send(request)
    let (text, reset) = await client.readToEnd()
    client.close()
    return (text, reset, server)
  }

  @Test func bytesAreFramedWithContentLength() async throws {
    let (text, _, server) = try await exchange(.text("hello"))
    #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
    #expect(text.contains("Content-Length: 5\r\n"))
    #expect(text.hasSuffix("\r\n\r\nhello"))
    await server.shutdown()
  }

  /// A head and its body written apart leave as two segments, and the second waits for the
  /// client's delayed acknowledgement of the first (about 40 ms an answer): they must leave
  /// together, so the client's first read holds the whole answer, on every answer of a
  /// connection kept alive.
  @Test func theHeadAndASmallBodyArriveInOneRead() async throws {
    let server = try await MockServer.started()
    server.route(.get, "/thing", answer: .text("hello"))
    let client = try RawHTTPClient(port: server.port)
    for _ in 0..<5 {
      client.send("GET /thing HTTP/1.1\r\nHost: x\r\n\r\n")
      let first = await client.readOnce()
      #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(
        first.hasSuffix("\r\n\r\nhello"), "the first read held only \(first.utf8.count) bytes")
    }
    client.close()
    await server.shutdown()
  }

  @Test func chunksTrailersAndInformationalHeadsAreSentInOrder() async throws {
    var answer = MockAnswer(body: .chunks([MockChunk("ab"), MockChunk("cde")]))
    answer.trailers = ["Checksum": "42"]
    answer.informational = [MockInformationalHead(status: 103, headers: ["Link": "</a>"])]
    let (text, _, server) = try await exchange(answer)
    #expect(text.hasPrefix("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n"))
    #expect(text.contains("Transfer-Encoding: chunked\r\nTrailer: Checksum\r\n"))
    #expect(text.hasSuffix("\r\n\r\n2\r\nab\r\n3\r\ncde\r\n0\r\nChecksum: 42\r\n\r\n"))
    await server.shutdown()
  }

  @Test func hangingUpAfterBodyBytesSendsExactlyThoseBytes() async throws {
    let (text, reset, server) = try await exchange(
      .text("0123456789").with(fault: .hangUpAfterBodyBytes(4)))
    #expect(text.hasSuffix("Content-Length: 10\r\n\r\n0123") || text.hasSuffix("\r\n\r\n0123"))
    #expect(!reset)
    await server.shutdown()
  }

  @Test func resetBeforeHeadSendsNothingAndResets() async throws {
    let (text, reset, server) = try await exchange(.text("never").with(fault: .resetBeforeHead))
    #expect(text.isEmpty)
    #expect(reset)
    await server.shutdown()
  }

  @Test func omittingTheFinalChunkEndsWithoutTheZeroChunk() async throws {
    let (text, _, server) = try await exchange(
      MockAnswer(body: .chunks([MockChunk("abc")]), fault: .omitFinalChunk))
    #expect(text.hasSuffix("3\r\nabc\r\n"))
    await server.shutdown()
  }

  @Test(arguments: [
    (MockHead.garbageStatusLine, "THIS IS NOT HTTP AT ALL\r\n"),
    (.wrongCaseProtocolName, "Http/1.1 200 OK\r\n"),
    (.noReasonPhrase, "HTTP/1.1 200\r\n"),
    (.conflictingContentLength, "Content-Length: 8, 2\r\n"),
    (.headerWithoutColon, "this line has no colon\r\n"),
  ])
  func brokenHeadsAreWrittenAsScripted(head: MockHead, expected: String) async throws {
    var answer = MockAnswer.data(Data("ok".utf8))
    answer.head = head
    let (text, _, server) = try await exchange(answer)
    #expect(text.contains(expected))
    #expect(text.hasSuffix("\r\n\r\nok"))
    await server.shutdown()
  }

  @Test func aRawHeadIsSentVerbatimWithTheBody() async throws {
    var answer = MockAnswer.data(Data("xyz".utf8))
    answer.head = .raw("HTTP/1.1 299 Odd\r\nX-A: 1\r\n\r\n")
    let (text, _, server) = try await exchange(answer)
    #expect(text == "HTTP/1.1 299 Odd\r\nX-A: 1\r\n\r\nxyz")
    await server.shutdown()
  }

  @Test func requestsAreRecordedWithBodiesConnectionsAndOrder() async throws {
    let server = try await MockServer.started()
    server.enqueue(.text("one"))
    server.enqueue(.text("two").closingConnection())
    let client = try RawHTTPClient(port: server.port)
    client.send(
      "POST /a?x=1&y=%20z HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
        + "PUT /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n1\r\nf\r\n0\r\n\r\n"
    )
    let (text, _) = await client.readToEnd()
    client.close()
    #expect(text.hasSuffix("one") == false && text.hasSuffix("two"))
    let first = try await server.takeRequest()
    let second = try await server.takeRequest()
    #expect(first.method == "POST")
    #expect(first.path == "/a")
    #expect(first.bodyText == "abc")
    #expect(first.queryValue("y") == " z")
    #expect(second.method == "PUT")
    #expect(second.bodyText == "def")
    #expect(second.isComplete)
    #expect(first.connection == second.connection)
    #expect(first.indexOnConnection == 0)
    #expect(second.indexOnConnection == 1)
    #expect(first.sequenceNumber == 0)
    #expect(second.sequenceNumber == 1)
    await server.shutdown()
  }

  @Test func expectContinueGetsAnInterimAnswerBeforeTheBodyIsRead() async throws {
    let server = try await MockServer.started()
    server.enqueue(.text("done").closingConnection())
    let client = try RawHTTPClient(port: server.port)
    client.send("POST /up HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
    let interim = await client.read(until: "\r\n\r\n")
    #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"))
    client.send("data")
    let (rest, _) = await client.readToEnd()
    client.close()
    #expect(rest.hasSuffix("done"))
    #expect(try await server.takeRequest().bodyText == "data")
    await server.shutdown()
  }

  @Test func hangingUpDuringTheRequestBodyRecordsWhatArrived() async throws {
    let server = try await MockServer.started()
    server.route(
      .post, "/upload", answer: .text("never").with(fault: .hangUpDuringRequestBody(afterBytes: 3)))
    let client = try RawHTTPClient(port: server.port)
    client.send("POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabcdefghij")
    let (text, _) = await client.readToEnd()
    client.close()
    #expect(text.isEmpty)
    let request = try await server.takeRequest()
    #expect(request.bodyText == "abc")
    #expect(!request.isComplete)
    await server.shutdown()
  }

  @Test func aMalformedRequestGetsA400() async throws {
    let server = try await MockServer.started()
    let client = try RawHTTPClient(port: server.port)
    client.send("NOT A REQUEST\r\n\r\n")
    let (text, _) = await client.readToEnd()
    client.close()
    #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    #expect(server.statistics.requestCount == 0)
    await server.shutdown()
  }

  @Test func aRequestWithNoAnswerGetsA404ThatSaysSo() async throws {
    let (text, _, server) = try await exchange(.text("first"))
    #expect(text.hasSuffix("first"))
    let client = try RawHTTPClient(port: server.port)
    client.send("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let (second, _) = await client.readToEnd()
    client.close()
    #expect(second.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    #expect(second.contains("no answer for GET /nothing"))
    await server.shutdown()
  }
}

extension MockAnswer {
  /// This answer, closing its connection afterwards (so a raw client reads to the end).
  func closingConnection() -> MockAnswer {
    var copy = self
    copy.closesConnection = true
    return copy
  }
}
