import Convoy
import ConvoyTesting
import Foundation
import Testing

#if os(Linux)
  // The case categories of the Autobahn|Testsuite, written from RFC 6455, RFC 7692 and the
  // suite's published case descriptions, played by a MockServer against Convoy's client over
  // libcurl: each category is a suite, each case what a server sends and what the client must
  // do about it (echo it, answer it, or fail with the right close code).

  /// 1. Framing: messages of every length form, and frames that arrive a few bytes at a time.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketFramingCases {
    @Test(arguments: [0, 125, 126, 127, 128, 65535, 65536, 1 << 20])
    func aTextMessageOfEveryLengthFormIsEchoed(length: Int) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectEcho(of: [.text(String(repeating: "*", count: length))])
      await test.server.shutdown()
    }

    @Test(arguments: [0, 125, 126, 65535, 65536, 1 << 20])
    func aBinaryMessageOfEveryLengthFormIsEchoed(length: Int) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectEcho(of: [.binary(.pattern(length))])
      await test.server.shutdown()
    }

    @Test func aFrameThatArrivesOneByteAtATimeIsOneMessage() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectEcho(of: [.binary(.pattern(300))]) { socket, message in
        guard case .binary(let data) = message else { return }
        try await socket.send(
          bytes: MockWebSocketFrame(opcode: 0x2, payload: data).bytes, inPiecesOf: 1,
          pausing: .milliseconds(1))
      }
      await test.server.shutdown()
    }
  }

  /// 2. Pings and pongs.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketPingCases {
    @Test(arguments: [0, 125])
    func aPingIsAnsweredWithAPongOfItsPayload(length: Int) async throws {
      let test = try await WebSocketCase.start()
      let pongs = Locked<[MockWebSocketFrame]>([])
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          try await socket.send(frame: MockWebSocketFrame(opcode: 0x9, payload: .pattern(length)))
          if let pong = await socket.receiveFrame() { pongs.withLock { $0.append(pong) } }
          try await socket.close()
        })
      let socket = try await test.open()
      for try await _ in socket.messages {}
      #expect(pongs.current.map(\.opcode) == [0xA])
      #expect(pongs.current.first?.payload == .pattern(length))
      #expect(pongs.current.first?.isMasked == true)
      await test.server.shutdown()
    }

    @Test func aPingOver125BytesFailsWith1002() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x9, payload: .pattern(126)))
      }
      await test.server.shutdown()
    }

    @Test func anUnaskedForPongIsPassedOver() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectEcho(of: [.text("after the pong")]) { socket, message in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: 0xA, payload: Data("unsolicited".utf8)))
        try await socket.send(message)
      }
      await test.server.shutdown()
    }

    @Test func tenPingsInARowAreAnsweredUpToTheLast() async throws {
      let test = try await WebSocketCase.start()
      let lastPong = Locked<Data?>(nil)
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          for number in 0..<10 {
            try await socket.send(
              frame: MockWebSocketFrame(opcode: 0x9, payload: Data("\(number)".utf8)))
          }
          // RFC 6455 §5.5.3 lets a client answer only the latest of pings it had no time for.
          while let frame = await socket.receiveFrame(), frame.opcode == 0xA {
            lastPong.withLock { $0 = frame.payload }
            if frame.payload == Data("9".utf8) { break }
          }
          try await socket.close()
        })
      let socket = try await test.open()
      for try await _ in socket.messages {}
      #expect(lastPong.current == Data("9".utf8))
      await test.server.shutdown()
    }
  }

  /// 3. Reserved bits: set without an extension that defines them, on every kind of frame.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketReservedBitCases {
    @Test(arguments: [0x1, 0x2, 0x9, 0x8] as [UInt8], [1, 2, 3, 4, 5, 6, 7] as [UInt8])
    func aReservedBitFailsWith1002(opcode: UInt8, bits: UInt8) async throws {
      let test = try await WebSocketCase.start()
      let payload = opcode == 0x8 ? Data([0x03, 0xE8]) : Data("x".utf8)
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: opcode, payload: payload, reservedBits: bits))
      }
      await test.server.shutdown()
    }

    @Test func rsv1OnAPingFailsEvenWithCompressionAgreed() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(
        .protocolViolation, closing: .protocolError,
        options: WebSocketOptions(pingInterval: nil), compression: MockWebSocketCompression()
      ) { socket in
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x9, reservedBits: 0b100))
      }
      await test.server.shutdown()
    }

    @Test func theMessagesBeforeAFaultyFrameAreDelivered() async throws {
      let test = try await WebSocketCase.start()
      let received = try await test.expectFailure(.protocolViolation, closing: .protocolError) {
        socket in
        try await socket.send(.text("kept"))
        try await socket.send(
          frame: MockWebSocketFrame(opcode: 0x1, payload: Data("x".utf8), reservedBits: 0b010))
        try await socket.send(.text("never"))
      }
      #expect(received == [.text("kept")])
      await test.server.shutdown()
    }
  }

  /// 4. Opcodes: the reserved data (3-7) and control (11-15) opcodes.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketOpcodeCases {
    @Test(arguments: [3, 4, 5, 6, 7, 11, 12, 13, 14, 15] as [UInt8])
    func aReservedOpcodeFailsWith1002(opcode: UInt8) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: opcode, payload: Data("reserved".utf8)))
      }
      await test.server.shutdown()
    }
  }

  /// 5. Fragmentation.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketFragmentationCases {
    @Test(arguments: [0x9, 0xA] as [UInt8])
    func aFragmentedControlFrameFailsWith1002(opcode: UInt8) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: opcode, payload: Data("a".utf8), isFinal: false))
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x0, payload: Data("b".utf8)))
      }
      await test.server.shutdown()
    }

    @Test(arguments: [2, 3, 64])
    func aMessageInFragmentsWithPingsBetweenThemIsOneMessage(fragments: Int) async throws {
      let test = try await WebSocketCase.start()
      let text = String(repeating: "fragment ", count: fragments)
      try await test.expectEcho(of: [.text(text)]) { socket, _ in
        let bytes = Data(text.utf8)
        let size = bytes.count / fragments
        for index in 0..<fragments {
          let start = index * size
          let end = index == fragments - 1 ? bytes.count : start + size
          try await socket.send(
            frame: MockWebSocketFrame(
              opcode: index == 0 ? 0x1 : 0x0, payload: bytes[start..<end],
              isFinal: index == fragments - 1))
          if index < fragments - 1 {
            try await socket.send(
              frame: MockWebSocketFrame(opcode: 0x9, payload: Data("\(index)".utf8)))
          }
        }
      }
      await test.server.shutdown()
    }

    @Test func aContinuationWithoutAMessageFailsWith1002() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x0, payload: Data("orphan".utf8)))
      }
      await test.server.shutdown()
    }

    @Test func aNewMessageBeforeTheLastEndsFailsWith1002() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: 0x1, payload: Data("one".utf8), isFinal: false))
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x1, payload: Data("two".utf8)))
      }
      await test.server.shutdown()
    }
  }

  /// 6. UTF-8 in text messages: valid text split anywhere, invalid sequences anywhere.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketUTF8Cases {
    static let valid = "Hello-µ@ßöäüàá-UTF-8!! κόσμε 𝄞"

    @Test(arguments: [1, 2, 3, 5])
    func validTextSplitIntoFragmentsOfAnySizeIsOneMessage(fragmentSize: Int) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectEcho(of: [.text(Self.valid)]) { socket, _ in
        let bytes = Array(Self.valid.utf8)
        var start = 0
        while start < bytes.count {
          let end = min(bytes.count, start + fragmentSize)
          try await socket.send(
            frame: MockWebSocketFrame(
              opcode: start == 0 ? 0x1 : 0x0, payload: Data(bytes[start..<end]),
              isFinal: end == bytes.count))
          start = end
        }
      }
      await test.server.shutdown()
    }

    static let invalid: [[UInt8]] = [
      // A surrogate after valid Greek.
      [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80],
      [0xC0, 0xAF],  // overlong
      [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
      [0x80],  // a lone continuation byte
      [0x61, 0xF0, 0x9D, 0x84],  // cut short at the end
      [0xFE],  // never valid
    ]

    @Test(arguments: invalid)
    func invalidTextFailsWith1007(bytes: [UInt8]) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .invalidPayload) { socket in
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x1, payload: Data(bytes)))
      }
      await test.server.shutdown()
    }

    @Test func invalidTextInTheFirstFragmentFailsBeforeTheMessageEnds() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .invalidPayload) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(opcode: 0x1, payload: Data([0x61, 0xFF]), isFinal: false))
        // The rest never comes: the client must not wait for it to judge the first fragment.
      }
      await test.server.shutdown()
    }
  }

  /// 7. Close handling.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketCloseCases {
    @Test(arguments: [1000, 1001, 3000, 3999, 4000, 4999] as [UInt16])
    func aCloseWithAValidCodeIsAnsweredWithIt(code: UInt16) async throws {
      let test = try await WebSocketCase.start()
      let answer = Locked<WebSocketCloseCode?>(nil)
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          let code = try await socket.close(code: WebSocketCloseCode(rawValue: code), reason: "bye")
          answer.withLock { $0 = code }
        })
      let socket = try await test.open()
      for try await _ in socket.messages {}
      #expect(socket.closeCode?.rawValue == code)
      #expect(socket.closeReason == "bye")
      // The client answers after its messages ended: wait for the answer to reach the script.
      #expect(await eventually { answer.current != nil })
      #expect(answer.current?.rawValue == code)
      await test.server.shutdown()
    }

    @Test func aCloseWithoutAPayloadIsAnsweredWithoutOne() async throws {
      let test = try await WebSocketCase.start()
      let answer = Locked<MockWebSocketFrame?>(nil)
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          try await socket.send(frame: .close(nil))
          let frame = await socket.receiveFrame()
          answer.withLock { $0 = frame }
        })
      let socket = try await test.open()
      for try await _ in socket.messages {}
      #expect(socket.closeCode == .noStatusReceived)
      #expect(await eventually { answer.current != nil })
      #expect(answer.current?.opcode == 0x8)
      #expect(answer.current?.payload.isEmpty == true)
      await test.server.shutdown()
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000] as [UInt16])
    func aCloseWithACodeThatMayNotBeSentFailsWith1002(code: UInt16) async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(frame: .close(code))
      }
      await test.server.shutdown()
    }

    @Test func aOneByteCloseFailsWith1002() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(frame: MockWebSocketFrame(opcode: 0x8, payload: Data([0x03])))
      }
      await test.server.shutdown()
    }

    @Test func aCloseReasonThatIsNotUTF8FailsWith1007() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .invalidPayload) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(
            opcode: 0x8, payload: Data([0x03, 0xE8, 0xCE, 0xBA, 0xED, 0xA0, 0x80])))
      }
      await test.server.shutdown()
    }

    @Test func aCloseOf126BytesFailsWith1002() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(.protocolViolation, closing: .protocolError) { socket in
        try await socket.send(
          frame: MockWebSocketFrame(
            opcode: 0x8, payload: Data([0x03, 0xE8]) + Data(repeating: 0x61, count: 124)))
      }
      await test.server.shutdown()
    }

    @Test func aReasonOf123BytesIsKept() async throws {
      let test = try await WebSocketCase.start()
      let reason = String(repeating: "r", count: 123)
      test.server.route(
        "/case", answer: .webSocket { socket in try await socket.close(reason: reason) })
      let socket = try await test.open()
      for try await _ in socket.messages {}
      #expect(socket.closeReason == reason)
      await test.server.shutdown()
    }

    @Test func framesAfterTheServersCloseArePassedOver() async throws {
      let test = try await WebSocketCase.start()
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          try await socket.send(.text("before"))
          try await socket.send(frame: .close(1000))
          try await socket.send(.text("after"))
          try await socket.send(frame: MockWebSocketFrame(opcode: 0x9))
          _ = await socket.receive()
        })
      let socket = try await test.open()
      var received: [WebSocketMessage] = []
      for try await message in socket.messages { received.append(message) }
      #expect(received == [.text("before")])
      #expect(try await test.server.webSocketCloseCode() == .normalClosure)
      await test.server.shutdown()
    }

    @Test func aServerThatNeverAnswersTheCloseIsLeftAfterTheCloseTimeout() async throws {
      let test = try await WebSocketCase.start()
      test.server.route(
        "/case",
        answer: .webSocket { socket in
          // Reads the client's close and sends nothing back: the next read ends only when the
          // client drops the connection.
          _ = await socket.receiveFrame()
          _ = await socket.receiveFrame()
        })
      let socket = try await test.open(
        options: WebSocketOptions(compression: false, closeTimeout: 0.2, pingInterval: nil))
      await socket.close()
      try await test.server.waitUntil("the client to drop the connection") {
        $0.connectionsClosed == 1
      }
      await test.server.shutdown()
    }

    @Test func aServerThatVanishesMidFrameFailsAfterTheWholeMessages() async throws {
      let test = try await WebSocketCase.start()
      let received = try await test.expectFailure(.closedAbnormally, closing: .abnormalClosure) {
        socket in
        try await socket.send(.text("whole"))
        try await socket.send(bytes: MockWebSocketFrame.text("cut short").bytes.prefix(5))
        await socket.hangUp()
      }
      #expect(received == [.text("whole")])
      await test.server.shutdown()
    }
  }

  /// 9. Limits: large messages, and a message over the client's limit.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketLimitCases {
    @Test(arguments: [4 << 20, 8 << 20])
    func aLargeMessageInFramesOf64KBIsEchoed(length: Int) async throws {
      let test = try await WebSocketCase.start()
      let data = Data.pattern(length)
      try await test.expectEcho(of: [.binary(data)]) { socket, _ in
        var start = 0
        while start < data.count {
          let end = min(data.count, start + 65536)
          try await socket.send(
            frame: MockWebSocketFrame(
              opcode: start == 0 ? 0x2 : 0x0, payload: data[start..<end], isFinal: end == data.count
            ))
          start = end
        }
      }
      await test.server.shutdown()
    }

    @Test func aMessageOverTheLimitFailsWith1009AtTheFragmentThatPassesIt() async throws {
      let test = try await WebSocketCase.start()
      try await test.expectFailure(
        .protocolViolation, closing: .messageTooBig,
        options: WebSocketOptions(
          compression: false, maximumMessageSize: 100_000, pingInterval: nil)
      ) { socket in
        for index in 0..<3 {
          try await socket.send(
            frame: MockWebSocketFrame(
              opcode: index == 0 ? 0x2 : 0x0, payload: .pattern(40_000), isFinal: false))
        }
        // The end never comes: the third fragment already passed the limit.
      }
      await test.server.shutdown()
    }
  }

  /// 12 and 13. Compression, with each parameter the server may answer.
  @Suite(.timeLimit(.minutes(2))) struct WebSocketCompressionCases {
    static let compressions: [MockWebSocketCompression] = [
      MockWebSocketCompression(),
      MockWebSocketCompression(serverNoContextTakeover: true),
      MockWebSocketCompression(clientNoContextTakeover: true),
      MockWebSocketCompression(serverNoContextTakeover: true, clientNoContextTakeover: true),
      MockWebSocketCompression(serverMaxWindowBits: 9),
      MockWebSocketCompression(serverMaxWindowBits: 12),
      MockWebSocketCompression(clientMaxWindowBits: 9),
      MockWebSocketCompression(clientMaxWindowBits: 12),
    ]

    @Test(arguments: compressions)
    func messagesOfManySizesAreEchoedCompressed(compression: MockWebSocketCompression)
      async throws
    {
      let test = try await WebSocketCase.start()
      let messages: [WebSocketMessage] = [16, 64, 256, 1024, 4096, 65536, 262_144].flatMap {
        [
          WebSocketMessage.text(String(repeating: "compress me ", count: $0 / 12)),
          .binary(.pattern($0)),
        ]
      }
      try await test.expectEcho(
        of: messages, options: WebSocketOptions(pingInterval: nil), compression: compression)
      await test.server.shutdown()
    }

    @Test(arguments: [
      "permessage-deflate; unknown_parameter", "permessage-deflate; server_max_window_bits=7",
      "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
      "x-webkit-deflate-frame",
    ])
    func anAnswerTheClientDidNotOfferFailsTheHandshake(extensions: String) async throws {
      let test = try await WebSocketCase.start()
      test.server.route(
        "/case",
        answer: .webSocket(headers: ["Sec-WebSocket-Extensions": extensions]) { _ in })
      let error = await #expect(throws: WebSocketError.self) {
        _ = try await test.open(options: WebSocketOptions(pingInterval: nil))
      }
      #expect(error?.kind == .handshakeFailed)
      await test.server.shutdown()
    }
  }
#endif
