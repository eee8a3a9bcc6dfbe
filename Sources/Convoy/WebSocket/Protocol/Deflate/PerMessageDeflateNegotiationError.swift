/// Why a server's `Sec-WebSocket-Extensions` answer fails the handshake (RFC 6455 §9.1,
/// RFC 7692 §5 and §7.1).
///
/// RFC 7692 §5 makes the client fail the connection when the answer has a parameter not
/// defined for an answer, a parameter with an invalid value, a parameter twice, or describes a
/// configuration the client does not support; RFC 6455 §9.1 forbids extensions the client did
/// not offer. Each case names one of those; parameter names are as the server wrote them.
package enum PerMessageDeflateNegotiationError: Error, Sendable, Hashable {
  /// The header is not a list of `token *( ";" token [ "=" ( token / quoted-string ) ] )`
  /// (RFC 6455 §9.1 with RFC 7230's list and quoted-string rules); `position` is the UTF-8
  /// offset where reading stopped.
  case malformedHeader(position: Int)
  /// The server accepted an extension the client did not offer.
  case unknownExtension(String)
  /// The server accepted permessage-deflate twice; the client offered it once, and two
  /// extensions cannot both own RSV1.
  case repeatedExtension
  /// A parameter RFC 7692 does not define.
  case unknownParameter(String)
  /// A parameter given twice.
  case duplicateParameter(String)
  /// A value on a parameter that takes none (`server_no_context_takeover`,
  /// `client_no_context_takeover`).
  case unexpectedValue(parameter: String, value: String)
  /// No value on a parameter that needs one in an answer (`server_max_window_bits`,
  /// `client_max_window_bits`).
  case missingValue(parameter: String)
  /// A window size that is not a decimal 8 to 15 without leading zeros (RFC 7692 §7.1.2).
  case invalidWindowBits(parameter: String, value: String)
  /// `client_max_window_bits` in the answer to an offer without it (RFC 7692 §7.1.2.2: the
  /// server must not limit a client that did not say it can be limited).
  case notOffered(parameter: String)
  /// A parameter the client offered is missing from the answer: `server_no_context_takeover`
  /// or `server_max_window_bits`, which the server accepts only by answering with them
  /// (RFC 7692 §7.1.1.1, §7.1.2.1); an answer without them accepts an offer not made.
  case notAccepted(parameter: String)
  /// `server_max_window_bits` answered larger than offered (RFC 7692 §7.1.2.1: the same or a
  /// smaller value).
  case windowBitsAboveOffer(parameter: String, offered: Int, answered: Int)
}
