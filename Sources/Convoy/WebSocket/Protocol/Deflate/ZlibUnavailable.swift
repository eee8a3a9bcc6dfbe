/// Why the system zlib cannot be used in this process: missing, of another major version, or
/// without one of the functions Convoy calls.
///
/// It is not a failure of a connection: a client that cannot load zlib simply does not offer
/// permessage-deflate in its handshake, and its messages go uncompressed.
package struct ZlibUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, for logs.
  package let reason: String

  init(_ reason: String) {
    self.reason = reason
  }

  package var description: String { reason }
}
