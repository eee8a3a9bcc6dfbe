import Foundation
import Testing

@testable import Convoy

/// RFC 6455 §4.1 and §4.2.2: the upgrade request's fields and the checks of the server's answer.
@Suite struct WebSocketHandshakeTests {
  /// The example key of RFC 6455 §1.3 and the accept value it gives there.
  private let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="
  private let rfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

  private func answer(_ changes: [String: String?] = [:]) -> HTTPHeaders {
    var headers: HTTPHeaders = [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": rfcAccept,
    ]
    for (name, value) in changes { headers[name] = value }
    return headers
  }

  private func failure(
    _ handshake: WebSocketHandshake, status: Int = 101, headers: HTTPHeaders
  ) -> WebSocketHandshakeError? {
    do {
      _ = try handshake.validate(status: status, headers: headers)
      return nil
    } catch {
      return error
    }
  }

  @Test func theAcceptValueOfTheRFCExample() throws {
    #expect(WebSocketHandshake.accept(for: rfcKey) == rfcAccept)
    #expect(try WebSocketHandshake(key: rfcKey).expectedAccept == rfcAccept)
  }

  @Test func theKeyIsSixteenBytesFromTheGeneratorInBase64() throws {
    var random = ScriptedRandom([0x0706_0504_0302_0100])
    let handshake = try WebSocketHandshake(using: &random)
    let nonce = try #require(Data(base64Encoded: handshake.key))
    #expect(nonce.count == 16)
    #expect(handshake.key.count == 24)
    var again = ScriptedRandom([0x0706_0504_0302_0100])
    #expect(try WebSocketHandshake(using: &again).key == handshake.key)
    var other = ScriptedRandom([0x1111_2222_3333_4444])
    #expect(try WebSocketHandshake(using: &other).key != handshake.key)
  }

  @Test func everyHandshakeGetsAFreshKey() throws {
    let keys = try Set((0..<4).map { _ in try WebSocketHandshake().key })
    #expect(keys.count == 4)
  }

  @Test func theRequestCarriesTheUpgradeFields() throws {
    let headers = try WebSocketHandshake(key: rfcKey).requestHeaders
    #expect(headers["upgrade"] == "websocket")
    #expect(headers["connection"] == "Upgrade")
    #expect(headers["sec-websocket-key"] == rfcKey)
    #expect(headers["sec-websocket-version"] == "13")
    #expect(!headers.contains("Sec-WebSocket-Protocol"))
    #expect(!headers.contains("Sec-WebSocket-Extensions"))
  }

  @Test func theRequestOffersSubprotocolsAndExtensionsWhenGiven() throws {
    let handshake = try WebSocketHandshake(
      key: rfcKey, subprotocols: ["chat.v2", "chat"],
      extensionOffer: "permessage-deflate; client_max_window_bits")
    #expect(handshake.requestHeaders["Sec-WebSocket-Protocol"] == "chat.v2, chat")
    #expect(
      handshake.requestHeaders["Sec-WebSocket-Extensions"]
        == "permessage-deflate; client_max_window_bits")
  }

  @Test(arguments: ["chat room", "", "chat,v2", "ch\"at"])
  func aSubprotocolThatIsNotATokenIsRefused(name: String) {
    #expect(throws: WebSocketHandshakeError.invalidSubprotocolOffer(name)) {
      try WebSocketHandshake(key: rfcKey, subprotocols: ["chat", name])
    }
  }

  @Test func aSubprotocolOfferedTwiceAndAnOfferWithALineBreakAreRefused() {
    #expect(throws: WebSocketHandshakeError.invalidSubprotocolOffer("chat")) {
      try WebSocketHandshake(key: rfcKey, subprotocols: ["chat", "chat"])
    }
    #expect(throws: WebSocketHandshakeError.invalidExtensionOffer("a\r\nX-Injected: 1")) {
      try WebSocketHandshake(key: rfcKey, extensionOffer: "a\r\nX-Injected: 1")
    }
  }

  @Test func theRFCAnswerOpensTheSocket() throws {
    let agreement = try WebSocketHandshake(key: rfcKey).validate(status: 101, headers: answer())
    #expect(agreement == WebSocketHandshake.Agreement(subprotocol: nil, extensions: []))
  }

  @Test func upgradeAndConnectionAreMatchedWithoutCaseAndConnectionAsAList() throws {
    let headers = answer(["Upgrade": "WebSocket", "Connection": "keep-alive, UPGRADE"])
    #expect(throws: Never.self) {
      try WebSocketHandshake(key: rfcKey).validate(status: 101, headers: headers)
    }
  }

  @Test(arguments: [200, 301, 401, 403, 404, 426, 500])
  func aStatusOtherThan101Fails(status: Int) throws {
    let error = failure(try WebSocketHandshake(key: rfcKey), status: status, headers: answer())
    #expect(error == .notSwitchingProtocols(status: status))
    #expect(error?.description.contains("status \(status)") == true)
  }

  @Test func aMissingOrWrongUpgradeFails() throws {
    let handshake = try WebSocketHandshake(key: rfcKey)
    #expect(failure(handshake, headers: answer(["Upgrade": nil])) == .upgradeNotWebSocket(nil))
    #expect(failure(handshake, headers: answer(["Upgrade": "h2c"])) == .upgradeNotWebSocket("h2c"))
    // U+212A KELVIN SIGN lowercases to "k", but §4.1 asks for an ASCII match.
    let kelvin = "websoc\u{212A}et"
    #expect(
      failure(handshake, headers: answer(["Upgrade": kelvin])) == .upgradeNotWebSocket(kelvin))
  }

  @Test func aConnectionWithoutTheUpgradeTokenFails() throws {
    let handshake = try WebSocketHandshake(key: rfcKey)
    #expect(failure(handshake, headers: answer(["Connection": nil])) == .connectionNotUpgrade(nil))
    #expect(
      failure(handshake, headers: answer(["Connection": "keep-alive, upgraded"]))
        == .connectionNotUpgrade("keep-alive, upgraded"))
  }

  @Test func aMissingOrWrongAcceptFails() throws {
    let handshake = try WebSocketHandshake(key: rfcKey)
    #expect(failure(handshake, headers: answer(["Sec-WebSocket-Accept": nil])) == .acceptMissing)
    let wrong = WebSocketHandshake.accept(for: "AQIDBAUGBwgJCgsMDQ4PEA==")
    #expect(
      failure(handshake, headers: answer(["Sec-WebSocket-Accept": wrong]))
        == .acceptMismatch(expected: rfcAccept, received: wrong))
    // Base64 is case-sensitive.
    #expect(
      failure(handshake, headers: answer(["Sec-WebSocket-Accept": rfcAccept.lowercased()])) != nil)
  }

  @Test func anOfferedSubprotocolIsReturned() throws {
    let handshake = try WebSocketHandshake(key: rfcKey, subprotocols: ["chat.v2", "chat"])
    let agreement = try handshake.validate(
      status: 101, headers: answer(["Sec-WebSocket-Protocol": "chat"]))
    #expect(agreement.subprotocol == "chat")
    #expect(try handshake.validate(status: 101, headers: answer()).subprotocol == nil)
  }

  @Test func aSubprotocolThatWasNotOfferedFails() throws {
    let offering = try WebSocketHandshake(key: rfcKey, subprotocols: ["chat"])
    #expect(
      failure(offering, headers: answer(["Sec-WebSocket-Protocol": "Chat"]))
        == .subprotocolNotOffered("Chat"))
    let silent = try WebSocketHandshake(key: rfcKey)
    #expect(
      failure(silent, headers: answer(["Sec-WebSocket-Protocol": "chat"]))
        == .subprotocolNotOffered("chat"))
  }

  @Test func moreThanOneSubprotocolFails() throws {
    let handshake = try WebSocketHandshake(key: rfcKey, subprotocols: ["a", "b"])
    #expect(
      failure(handshake, headers: answer(["Sec-WebSocket-Protocol": "a, b"]))
        == .severalSubprotocols(["a", "b"]))
    var twoFields = answer()
    twoFields.add(name: "Sec-WebSocket-Protocol", value: "a")
    twoFields.add(name: "Sec-WebSocket-Protocol", value: "a")
    #expect(failure(handshake, headers: twoFields) == .severalSubprotocols(["a", "a"]))
  }

  @Test func acceptedExtensionsAreReturnedOneStringEach() throws {
    let handshake = try WebSocketHandshake(
      key: rfcKey, extensionOffer: "permessage-deflate; client_max_window_bits")
    var headers = answer([
      "Sec-WebSocket-Extensions":
        "permessage-deflate; client_max_window_bits=10, x-other; q=\"a,b\""
    ])
    headers.add(name: "sec-websocket-extensions", value: "x-third")
    let agreement = try handshake.validate(status: 101, headers: headers)
    #expect(
      agreement.extensions == [
        "permessage-deflate; client_max_window_bits=10", "x-other; q=\"a,b\"", "x-third",
      ])
  }

  @Test func anExtensionWhenNoneWasOfferedFails() throws {
    let error = failure(
      try WebSocketHandshake(key: rfcKey),
      headers: answer(["Sec-WebSocket-Extensions": "permessage-deflate"]))
    #expect(error == .extensionsNotOffered(["permessage-deflate"]))
    #expect(error?.description.contains("permessage-deflate") == true)
  }
}
