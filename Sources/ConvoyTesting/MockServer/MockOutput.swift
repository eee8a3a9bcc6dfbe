/// The bytes of an answer on their way to one connection, gathered so that what is ready leaves
/// in one write.
///
/// An answer written piece by piece (the head, then the body, then a chunk's framing) would go
/// out in several small segments; a client that delays its acknowledgement of the first then
/// holds the rest up, and every answer took about 40 ms. Gathered, the head and a small body
/// leave together. Whatever must reach the client before a pause, a fault or the end of the
/// answer is flushed there: pacing and faults act on what the client has really been sent.
final class MockOutput {
  private let descriptor: Int32
  private let onSend: (Int) -> Void
  private var pending: [UInt8] = []
  /// Gathered bytes past this are written at once, so a large body never sits in memory whole.
  private let flushThreshold = 64 * 1024

  init(descriptor: Int32, onSend: @escaping (Int) -> Void) {
    self.descriptor = descriptor
    self.onSend = onSend
    pending.reserveCapacity(flushThreshold)
  }

  /// Adds `bytes` to what goes out next; `false` once the peer is gone.
  func write(_ bytes: some Collection<UInt8>) -> Bool {
    pending.append(contentsOf: bytes)
    return pending.count < flushThreshold || flush()
  }

  /// Sends everything gathered; `false` once the peer is gone.
  @discardableResult
  func flush() -> Bool {
    guard !pending.isEmpty else { return true }
    defer { pending.removeAll(keepingCapacity: true) }
    guard MockSocket.send(descriptor, pending) else { return false }
    onSend(pending.count)
    return true
  }
}
