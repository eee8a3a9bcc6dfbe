/// What a client offers for permessage-deflate (RFC 7692 §7), and how it checks the server's
/// answer against that offer.
///
/// The default offer is `permessage-deflate; client_max_window_bits`: compression with context
/// takeover both ways and 15-bit windows, and the server free to limit the client's window
/// (which costs the client nothing: its deflater simply uses the smaller window). One offer,
/// no alternatives, so the answer is checked against exactly it.
package struct PerMessageDeflateConfiguration: Sendable, Hashable {
  /// How the offer speaks of the client's own window.
  package enum ClientWindowOffer: Sendable, Hashable {
    /// No `client_max_window_bits`: the server must not limit the client's window.
    case notOffered
    /// `client_max_window_bits` without a value: the server may answer any limit.
    case serverMayLimit
    /// `client_max_window_bits=N`: the client will use at most 2^N bytes whatever the answer.
    case limit(Int)
  }

  package var clientWindow: ClientWindowOffer
  /// `server_max_window_bits=N` when set: the server must answer with N or less.
  package var serverMaxWindowBits: Int?
  /// `client_no_context_takeover`: the client resets its context after each message, answered
  /// or not (RFC 7692 §7.1.1.2: the offer is a promise).
  package var clientNoContextTakeover: Bool
  /// `server_no_context_takeover`: the server must agree to reset its context after each
  /// message, so that the client need not keep a window between messages.
  package var serverNoContextTakeover: Bool
  /// Messages shorter than this go uncompressed
  /// (see ``MessageDeflater/shouldCompress(byteCount:)``).
  package var minimumMessageSize: Int

  /// The extension's name in headers.
  package static let extensionName = "permessage-deflate"

  package init(
    clientWindow: ClientWindowOffer = .serverMayLimit, serverMaxWindowBits: Int? = nil,
    clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false,
    minimumMessageSize: Int = 64
  ) {
    if case .limit(let bits) = clientWindow {
      precondition(Self.windowBitsRange.contains(bits), "window bits are 8 to 15 (RFC 7692 §7.1.2)")
    }
    if let bits = serverMaxWindowBits {
      precondition(Self.windowBitsRange.contains(bits), "window bits are 8 to 15 (RFC 7692 §7.1.2)")
    }
    self.clientWindow = clientWindow
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverNoContextTakeover = serverNoContextTakeover
    self.minimumMessageSize = minimumMessageSize
  }

  /// The `Sec-WebSocket-Extensions` value that offers this configuration.
  package var offer: String {
    var parameters: [WebSocketExtensionElement.Parameter] = []
    if clientNoContextTakeover { parameters.append(.init(Name.clientNoContextTakeover)) }
    if serverNoContextTakeover { parameters.append(.init(Name.serverNoContextTakeover)) }
    switch clientWindow {
    case .notOffered: break
    case .serverMayLimit: parameters.append(.init(Name.clientMaxWindowBits))
    case .limit(let bits): parameters.append(.init(Name.clientMaxWindowBits, String(bits)))
    }
    if let bits = serverMaxWindowBits {
      parameters.append(.init(Name.serverMaxWindowBits, String(bits)))
    }
    return WebSocketExtensionElement(name: Self.extensionName, parameters: parameters)
      .headerValue
  }

  /// What was agreed, given the server's `Sec-WebSocket-Extensions` answer (its fields joined
  /// with `,` if it sent several); `nil` when the server did not accept permessage-deflate
  /// (no header, or one that lists no extension), and messages then go uncompressed.
  ///
  /// - Throws: why the answer fails the handshake; the caller fails the connection (RFC 7692
  ///   §5: the client "MUST _Fail the WebSocket Connection_").
  package func negotiate(
    answer: String?
  ) throws(PerMessageDeflateNegotiationError) -> PerMessageDeflateParameters? {
    guard let answer else { return nil }
    let elements = try WebSocketExtensionHeaderParser.parse(answer)
    guard let first = elements.first else { return nil }
    // RFC 6455 §9.1: the server answers only with extensions the client offered.
    if let other = elements.first(where: { $0.name != Self.extensionName }) {
      throw .unknownExtension(other.name)
    }
    guard elements.count == 1 else { throw .repeatedExtension }
    return try accept(first.parameters)
  }

  private func accept(
    _ parameters: [WebSocketExtensionElement.Parameter]
  ) throws(PerMessageDeflateNegotiationError) -> PerMessageDeflateParameters {
    var seen: Set<String> = []
    var agreed = PerMessageDeflateParameters(clientNoContextTakeover: clientNoContextTakeover)
    var answeredServerWindow = false
    if case .limit(let bits) = clientWindow { agreed.clientMaxWindowBits = bits }
    for parameter in parameters {
      guard seen.insert(parameter.name).inserted else {
        throw .duplicateParameter(parameter.name)
      }
      switch parameter.name {
      case Name.serverNoContextTakeover:
        try Self.requireNoValue(parameter)
        agreed.serverNoContextTakeover = true
      case Name.clientNoContextTakeover:
        // Allowed whether offered or not (RFC 7692 §7.1.1.2).
        try Self.requireNoValue(parameter)
        agreed.clientNoContextTakeover = true
      case Name.serverMaxWindowBits:
        // Allowed unoffered too: the server may announce its own limit (RFC 7692 §7.1.2.1).
        let bits = try Self.windowBits(parameter)
        if let offered = serverMaxWindowBits, bits > offered {
          throw .windowBitsAboveOffer(parameter: parameter.name, offered: offered, answered: bits)
        }
        agreed.serverMaxWindowBits = bits
        answeredServerWindow = true
      case Name.clientMaxWindowBits:
        guard clientWindow != .notOffered else { throw .notOffered(parameter: parameter.name) }
        // A larger answer than a value offered is no conflict: both are upper bounds, and the
        // client keeps to its own, the smaller.
        agreed.clientMaxWindowBits = min(agreed.clientMaxWindowBits, try Self.windowBits(parameter))
      default:
        throw .unknownParameter(parameter.name)
      }
    }
    if serverNoContextTakeover && !agreed.serverNoContextTakeover {
      throw .notAccepted(parameter: Name.serverNoContextTakeover)
    }
    if serverMaxWindowBits != nil && !answeredServerWindow {
      throw .notAccepted(parameter: Name.serverMaxWindowBits)
    }
    return agreed
  }

  private static func requireNoValue(
    _ parameter: WebSocketExtensionElement.Parameter
  ) throws(PerMessageDeflateNegotiationError) {
    if let value = parameter.value {
      throw .unexpectedValue(parameter: parameter.name, value: value)
    }
  }

  /// A window size as RFC 7692 §7.1.2 writes it: 8 to 15 in decimal, no leading zero; in an
  /// answer it always has one.
  private static func windowBits(
    _ parameter: WebSocketExtensionElement.Parameter
  ) throws(PerMessageDeflateNegotiationError) -> Int {
    guard let value = parameter.value else { throw .missingValue(parameter: parameter.name) }
    // Digits only: `Int("+9")` is 9, and a token may hold a `+`.
    guard !value.hasPrefix("0"), value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let bits = Int(value), windowBitsRange.contains(bits)
    else {
      throw .invalidWindowBits(parameter: parameter.name, value: value)
    }
    return bits
  }

  private static let windowBitsRange = 8...15

  /// The parameter names of RFC 7692 §7.1, matched exactly as registered.
  private enum Name {
    static let serverNoContextTakeover = "server_no_context_takeover"
    static let clientNoContextTakeover = "client_no_context_takeover"
    static let serverMaxWindowBits = "server_max_window_bits"
    static let clientMaxWindowBits = "client_max_window_bits"
  }
}
