import Foundation

/// The client's side of the opening handshake (RFC 6455 §4.1, §4.2.2): the header fields of the
/// upgrade request, and the checks of the server's answer.
///
/// It is the same on every transport: libcurl in connect-only mode, a raw socket and a stream
/// from URLSession all send a GET with these fields and read back a head, so the rules live here
/// once. It knows nothing of the URL, the other request headers or the wire.
package struct WebSocketHandshake: Sendable, Hashable {
  /// What the server's answer agreed to.
  package struct Agreement: Sendable, Hashable {
    /// The subprotocol the server chose from those offered, or `nil` when it chose none.
    package var subprotocol: String?
    /// The extensions the server accepted, one string each with its parameters (such as
    /// `permessage-deflate; client_max_window_bits=10`), in the server's order; checking them
    /// against the offer is the extension's work.
    package var extensions: [String]
  }

  /// The GUID §1.3 appends to the key before hashing it.
  package static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// The `Sec-WebSocket-Key`: 16 random bytes in base64 (§4.1), fresh for each handshake.
  package let key: String
  /// The subprotocols offered, in order of preference.
  package let subprotocols: [String]
  /// The `Sec-WebSocket-Extensions` value offered, such as
  /// `permessage-deflate; client_max_window_bits`, or `nil` to offer none.
  package let extensionOffer: String?

  /// Starts a handshake with a key from the system's secure generator.
  ///
  /// - Throws: ``WebSocketHandshakeError/invalidSubprotocolOffer(_:)`` or
  ///   ``WebSocketHandshakeError/invalidExtensionOffer(_:)`` for an offer that cannot be sent.
  package init(subprotocols: [String] = [], extensionOffer: String? = nil)
    throws(WebSocketHandshakeError)
  {
    var random = SystemRandomNumberGenerator()
    try self.init(subprotocols: subprotocols, extensionOffer: extensionOffer, using: &random)
  }

  /// Starts a handshake with a key made from `random`'s numbers.
  package init(
    subprotocols: [String] = [], extensionOffer: String? = nil,
    using random: inout some RandomNumberGenerator
  ) throws(WebSocketHandshakeError) {
    let nonce = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    try self.init(
      key: Data(nonce).base64EncodedString(), subprotocols: subprotocols,
      extensionOffer: extensionOffer)
  }

  /// Starts a handshake with a given key, such as the example of RFC 6455 §1.3 in a test.
  package init(key: String, subprotocols: [String] = [], extensionOffer: String? = nil)
    throws(WebSocketHandshakeError)
  {
    var seen = Set<String>()
    for name in subprotocols where !HTTPFieldSyntax.isValidName(name) || !seen.insert(name).inserted
    {
      throw .invalidSubprotocolOffer(name)
    }
    if let extensionOffer, !HTTPFieldSyntax.isValidValue(extensionOffer) {
      throw .invalidExtensionOffer(extensionOffer)
    }
    self.key = key
    self.subprotocols = subprotocols
    self.extensionOffer = extensionOffer
  }

  /// The fields the upgrade GET carries besides `Host` and the caller's own (§4.1).
  package var requestHeaders: HTTPHeaders {
    var headers: HTTPHeaders = [
      "Upgrade": "websocket",
      "Connection": "Upgrade",
      "Sec-WebSocket-Key": key,
      "Sec-WebSocket-Version": "13",
    ]
    if !subprotocols.isEmpty {
      headers.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", "))
    }
    if let extensionOffer {
      headers.add(name: "Sec-WebSocket-Extensions", value: extensionOffer)
    }
    return headers
  }

  /// The `Sec-WebSocket-Accept` the server must send back for this key.
  package var expectedAccept: String { Self.accept(for: key) }

  /// The `Sec-WebSocket-Accept` for `key`: base64 of the SHA-1 of the key and the GUID (§4.2.2).
  package static func accept(for key: String) -> String {
    Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
  }

  /// Checks the server's answer in the order of §4.1's list and says what it agreed to.
  ///
  /// - Throws: ``WebSocketHandshakeError`` for the first check that fails.
  package func validate(status: Int, headers: HTTPHeaders) throws(WebSocketHandshakeError)
    -> Agreement
  {
    guard status == 101 else { throw .notSwitchingProtocols(status: status) }
    let upgrade = headers["Upgrade"]
    guard let upgrade, Self.isWebSocket(upgrade) else { throw .upgradeNotWebSocket(upgrade) }
    let connection = headers["Connection"]
    guard let connection, Self.listItems(connection).contains(where: Self.isUpgrade) else {
      throw .connectionNotUpgrade(connection)
    }
    guard let accept = headers["Sec-WebSocket-Accept"] else { throw .acceptMissing }
    let received = accept.trimmingCharacters(in: .whitespaces)
    guard received == expectedAccept else {
      throw .acceptMismatch(expected: expectedAccept, received: received)
    }
    let chosen = headers["Sec-WebSocket-Protocol"].map(Self.listItems) ?? []
    guard chosen.count <= 1 else { throw .severalSubprotocols(chosen) }
    if let subprotocol = chosen.first, !subprotocols.contains(subprotocol) {
      throw .subprotocolNotOffered(subprotocol)
    }
    let extensions = headers.values(for: "Sec-WebSocket-Extensions").flatMap(Self.listItems)
    if extensionOffer == nil, !extensions.isEmpty { throw .extensionsNotOffered(extensions) }
    return Agreement(subprotocol: chosen.first, extensions: extensions)
  }

  /// The items of a comma-separated field, trimmed, without the empty ones (RFC 9110 §5.6.1).
  private static func listItems(_ value: String) -> [String] {
    HeaderValueSyntax.split(Substring(value), separator: ",").map(String.init)
  }

  private static func isWebSocket(_ value: String) -> Bool {
    asciiCaseInsensitiveEqual(value.trimmingCharacters(in: .whitespaces), "websocket")
  }

  private static func isUpgrade(_ token: String) -> Bool {
    asciiCaseInsensitiveEqual(token, "upgrade")
  }

  /// §4.1 asks for an ASCII case-insensitive match: only A-Z fold, so no Unicode case mapping
  /// (which turns the Kelvin sign into a "k") can make another value pass.
  private static func asciiCaseInsensitiveEqual(_ value: String, _ lowercase: String) -> Bool {
    value.utf8.count == lowercase.utf8.count
      && zip(value.utf8, lowercase.utf8).allSatisfy { byte, expected in
        let folded = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        return folded == expected
      }
  }
}
