import Foundation

/// How a streamed answer is read: how much may wait in memory, and how long to wait.
///
/// A buffered call has one deadline for the whole call; a stream may rightly last for hours, so
/// it has two limits instead: one for the head to arrive (redirects, retries and renewals
/// included) and one for silence between two pieces of the body.
public struct StreamOptions: Sendable, Hashable {
  /// The most body bytes held for a reader that has not taken them yet; above it the transfer
  /// pauses until the reader catches up. 1 MiB by default.
  public var bufferSize: Int
  /// The longest to wait for the head, or `nil` for the request's timeout (else the
  /// configuration's).
  public var headTimeout: TimeInterval?
  /// The longest silence between two pieces of the body, or `nil` for the configuration's
  /// timeout. A paused transfer (a slow reader) is not silent.
  public var idleTimeout: TimeInterval?
  /// Whether bytes a transport that cannot pause sends past the buffer go to a temporary file
  /// rather than ending the stream: set for downloads, whose reader writes a file and must never
  /// be refused.
  var spillsToDisk = false

  /// Creates options.
  public init(
    bufferSize: Int = 1 << 20, headTimeout: TimeInterval? = nil, idleTimeout: TimeInterval? = nil
  ) {
    self.bufferSize = bufferSize
    self.headTimeout = headTimeout
    self.idleTimeout = idleTimeout
  }
}
