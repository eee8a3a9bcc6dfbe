import Convoy
import Foundation
import Testing

@Suite struct ResponseLinesTests {
  static func collect<Body: AsyncSequence>(_ lines: ResponseLines<Body>) async throws -> [String] {
    var collected: [String] = []
    for try await line in lines { collected.append(line) }
    return collected
  }

  @Test func linesArriveInOrderWhateverTheChunks() async throws {
    let body = ChunkedBody.stream(["a\nb", "\r", "\nc\r\n\nd"].map(ChunkedBody.bytes))
    #expect(try await Self.collect(body.lines) == ["a", "b", "c", "", "d"])
  }

  @Test func everyCutInTwoGivesTheSameLines() async throws {
    let data = ChunkedBody.bytes(LineSplitterTests.mixedText)
    for chunks in ChunkedBody.twoPieces(data) {
      let lines = try await Self.collect(ChunkedBody.stream(chunks).lines)
      #expect(lines == ["héllo", "wörld 👋", "", "lone\rcr", "", "end ✓"])
    }
  }

  @Test func anEmptyBodyHasNoLines() async throws {
    #expect(try await Self.collect(ChunkedBody.stream([]).lines) == [])
  }

  @Test func theBodysErrorReachesTheLoopAfterTheLinesBeforeIt() async throws {
    let body = ChunkedBody.failing([ChunkedBody.bytes("one\ntw")], with: ChunkedBody.Failed())
    var iterator = body.lines.makeAsyncIterator()
    #expect(try await iterator.next() == "one")
    await #expect(throws: ChunkedBody.Failed()) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test func aFormatErrorEndsTheLoop() async throws {
    let body = ChunkedBody.stream([ChunkedBody.bytes("ok\n"), ChunkedBody.bytes("too long\n")])
    var iterator = ResponseLines(body, maximumLineLength: 4).makeAsyncIterator()
    #expect(try await iterator.next() == "ok")
    await #expect(throws: StreamFormatError.lineTooLong(line: 2, limit: 4)) {
      try await iterator.next()
    }
    #expect(try await iterator.next() == nil)
  }

  @Test func chunksAreReadOnlyAsTheLoopAsks() async throws {
    let pulls = Locked(0)
    let body = ChunkedBody.Counting(
      chunks: ["a\nb\n", "c\n", "d\n"].map(ChunkedBody.bytes), pulls: pulls)
    for try await line in body.lines where line == "b" { break }
    #expect(pulls.current == 1)
  }

  @Test func cancellingTheTaskEndsTheBody() async throws {
    let (body, continuation) = AsyncStream.makeStream(of: Data.self)
    let ended = Locked(false)
    continuation.onTermination = { _ in ended.withLock { $0 = true } }
    continuation.yield(ChunkedBody.bytes("first\n"))
    let reader = Task {
      var lines: [String] = []
      for try await line in body.lines { lines.append(line) }
      return lines
    }
    reader.cancel()
    _ = try await reader.value
    #expect(ended.current)
  }

  @Test func linesOfASendableBodyAreSendable() {
    let lines: any Sendable = ChunkedBody.stream([]).lines
    #expect(lines is ResponseLines<AsyncStream<Data>>)
  }
}

extension ResponseLinesTests {
  @Test func linesBeforeABadOneArriveAndThenTheErrorWithoutReadingOn() async throws {
    let pulls = Locked(0)
    let chunks = ["ok\ntoo long\n", "never read\n"]
    let body = ChunkedBody.Counting(chunks: chunks.map(ChunkedBody.bytes), pulls: pulls)
    var iterator = ResponseLines(body, maximumLineLength: 4).makeAsyncIterator()
    #expect(try await iterator.next() == "ok")
    await #expect(throws: StreamFormatError.lineTooLong(line: 2, limit: 4)) {
      try await iterator.next()
    }
    #expect(try await iterator.next() == nil)
    #expect(pulls.current == 1)
  }
}
