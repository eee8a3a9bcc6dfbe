/// What a handshake agreed for permessage-deflate (RFC 7692 §7.1): how each side compresses.
///
/// The `client_…` half configures this client's ``MessageDeflater``; the `server_…` half its
/// ``MessageInflater``.
package struct PerMessageDeflateParameters: Sendable, Hashable {
  /// The client resets its compression context after each message.
  package var clientNoContextTakeover: Bool
  /// The server resets its compression context after each message, so the client need not keep
  /// its window between messages.
  package var serverNoContextTakeover: Bool
  /// The client's LZ77 window, 8 to 15 bits (15 when nothing limited it).
  package var clientMaxWindowBits: Int
  /// The server's LZ77 window, 8 to 15 bits (15 when nothing limited it).
  package var serverMaxWindowBits: Int

  package init(
    clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false,
    clientMaxWindowBits: Int = 15, serverMaxWindowBits: Int = 15
  ) {
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientMaxWindowBits = clientMaxWindowBits
    self.serverMaxWindowBits = serverMaxWindowBits
  }
}
