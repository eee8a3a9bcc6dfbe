#if os(Linux)
  import Testing

  @testable import Convoy

  @Suite struct CurlResponseHeadTests {
    private func head(_ lines: [String], limits: ResponseLimits = ResponseLimits())
      -> CurlResponseHead
    {
      var head = CurlResponseHead(limits: limits)
      for line in lines {
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBufferPointer { head.add(line: UnsafeBufferPointer($0)) }
      }
      return head
    }

    @Test func keepsOnlyTheFinalHeadAfterAnInterimContinue() {
      let parsed = head([
        "HTTP/1.1 100 Continue\r\n", "X-Interim: yes\r\n", "\r\n",
        "HTTP/1.1 201 Created\r\n", "Location: /things/1\r\n", "\r\n",
      ])
      #expect(parsed.statusCode == 201)
      #expect(parsed.httpVersion == "HTTP/1.1")
      #expect(parsed.headers["location"] == "/things/1")
      #expect(!parsed.headers.contains("X-Interim"))
    }

    @Test func linesAfterTheFinalHeadAreTrailersNotHeaders() {
      let parsed = head([
        "HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n",
        "X-Checksum: sha256=abc\r\n", "Grpc-Status: 0\r\n", "\r\n",
      ])
      #expect(parsed.headers["Transfer-Encoding"] == "chunked")
      #expect(!parsed.headers.contains("X-Checksum"))
      #expect(parsed.trailers["x-checksum"] == "sha256=abc")
      #expect(parsed.trailers["grpc-status"] == "0")
      #expect(parsed.trailers.fields.count == 2)
    }

    @Test func keepsRepeatedFieldsApartAndJoinsThemForHTTPURLResponse() {
      let parsed = head([
        "HTTP/2 200\r\n", "set-cookie: a=1\r\n", "Set-Cookie: b=2\r\n", "Vary:  Accept \r\n",
        "\r\n",
      ])
      #expect(parsed.httpVersion == "HTTP/2")
      #expect(parsed.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
      #expect(parsed.headers.dictionary == ["set-cookie": "a=1, b=2", "Vary": "Accept"])
    }

    @Test func readsTheAnnouncedBodyLengthInAnyCase() {
      #expect(
        head(["HTTP/1.1 200 OK\r\n", "content-LENGTH: 102400\r\n", "\r\n"]).announcedBodyLength
          == 102_400)
      #expect(
        head(["HTTP/1.1 200 OK\r\n", "Content-Length: lots\r\n", "\r\n"]).announcedBodyLength == nil
      )
      #expect(head(["HTTP/1.1 204 No Content\r\n", "\r\n"]).announcedBodyLength == nil)
    }

    @Test func foldsContinuationLinesIntoThePreviousValue() {
      let parsed = head(["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "\t second\r\n", "\r\n"])
      #expect(parsed.headers["x-long"] == "first second")
    }

    @Test func keepsNonUTF8BytesAsLatin1() {
      var parsed = CurlResponseHead()
      for line in [
        Array("HTTP/1.1 200 OK\r\n".utf8), Array("X-Name: caf".utf8) + [0xE9, 13, 10], [13, 10],
      ] {
        var bytes = line
        _ = bytes.withUnsafeMutableBufferPointer { parsed.add(line: UnsafeBufferPointer($0)) }
      }
      #expect(parsed.headers["X-Name"] == "café")
    }

    @Test(arguments: [
      ("HTTP/1.1 204 No Content", 204, "HTTP/1.1"), ("HTTP/2 200", 200, "HTTP/2"),
      ("HTTP/1.0  302  Found", 302, "HTTP/1.0"), ("HTTP/1.1 200", 200, "HTTP/1.1"),
      ("HTTP/9.9 200 OK", 200, "HTTP/9.9"),
    ])
    func readsTheStatusAndVersionOfAStatusLine(line: String, status: Int, version: String) {
      let parsed = head([line + "\r\n", "\r\n"])
      #expect(parsed.statusCode == status)
      #expect(parsed.httpVersion == version)
    }

    @Test(arguments: ["HTTP/1.1 2x0 OK", "HTTP/1.1 +200 OK", "HTTP/1.1", "HTTP/1.1 9999999999 OK"])
    func aStatusThatIsNotAllDigitsReadsAsNone(line: String) {
      #expect(head([line + "\r\n", "\r\n"]).statusCode == 0)
    }

    @Test func aHeadWithMoreFieldsThanTheLimitIsRefusedAndNeverCompletes() {
      let limits = ResponseLimits(maximumHeaderFieldCount: 2)
      var head = CurlResponseHead(limits: limits)
      var completed = false
      for line in ["HTTP/1.1 200 OK\r\n", "A: 1\r\n", "B: 2\r\n", "C: 3\r\n", "\r\n"] {
        var bytes = Array(line.utf8)
        completed = bytes.withUnsafeMutableBufferPointer { head.add(line: UnsafeBufferPointer($0)) }
      }
      #expect(!completed)
      #expect(head.exceededLimit?.kind == .responseTooLarge)
      #expect(head.exceededLimit?.detail.contains("maximumHeaderFieldCount (2)") == true)
    }

    @Test func aHeadLargerThanTheLimitIsRefused() {
      let parsed = head(
        ["HTTP/1.1 200 OK\r\n", "X-Big: " + String(repeating: "x", count: 100) + "\r\n", "\r\n"],
        limits: ResponseLimits(maximumHeadSize: 64))
      #expect(parsed.exceededLimit?.detail.contains("maximumHeadSize (64)") == true)
      #expect(parsed.headers.fields.isEmpty)
    }

    @Test func everyHeadCountsOnItsOwnSoInterimHeadsDoNotAddUp() {
      let lines = [
        "HTTP/1.1 100 Continue\r\n", "A: 1\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "B: 2\r\n", "\r\n",
      ]
      let parsed = head(
        lines, limits: ResponseLimits(maximumHeaderFieldCount: 1, maximumHeadSize: 40))
      #expect(parsed.exceededLimit == nil)
      #expect(parsed.statusCode == 200)
      #expect(parsed.headers["b"] == "2")
    }
  }
#endif
