import Foundation

extension ServerConnection {
  /// The cache this connection's transport answers from, if it is a ``CachingTransport``.
  public var cache: HTTPCache? {
    (transport as? CachingTransport)?.cache
  }
}
