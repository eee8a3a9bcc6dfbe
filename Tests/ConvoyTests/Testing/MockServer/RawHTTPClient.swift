import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client that writes bytes to a socket and reads what comes back, so that tests see exactly
/// what a ``MockServer`` puts on the wire (framing, broken heads, resets) with no HTTP library
/// in between to tidy it up.
///
/// Its reads block, so each runs on a thread of its own, never on the concurrency pool's.
struct RawHTTPClient: Sendable {
  private let descriptor: Int32

  /// Connects to `127.0.0.1:port`.
  init(port: Int) throws {
    #if canImport(Darwin)
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
    // A read that waits longer than this fails the test instead of hanging it.
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
  }

  /// Sends `text` as it is.
  func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { sendBytes(descriptor, $0.baseAddress!, bytes.count) }
  }

  /// Everything the server sends until it closes the connection; `reset` says whether the close
  /// was a reset rather than an orderly end.
  func readToEnd() async -> (text: String, reset: Bool) {
    await onOwnThread { readToEndBlocking() }
  }

  private func readToEndBlocking() -> (text: String, reset: Bool) {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 65_536, 0) }
      if count > 0 {
        received += buffer[..<count]
        continue
      }
      let reset = count < 0 && errno == ECONNRESET
      return (String(decoding: received, as: UTF8.self), reset)
    }
  }

  /// Reads until `marker` has arrived (or the connection ends), for a connection kept alive.
  func read(until marker: String) async -> String {
    await onOwnThread { readBlocking(until: marker) }
  }

  private func readBlocking(until marker: String) -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !String(decoding: received, as: UTF8.self).contains(marker) {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 65_536, 0) }
      guard count > 0 else { break }
      received += buffer[..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// What one read returns: the bytes that have arrived when the first of them does.
  func readOnce() async -> String {
    await onOwnThread {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 65_536, 0) }
      return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }
  }

  /// Closes the connection.
  func close() {
    closeDescriptor(descriptor)
  }
}

/// Runs blocking `work` on a new thread and waits for it without holding a pool thread.
private func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}

// The C functions, which the struct's own `send` and `close` would otherwise shadow.
private func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  send(descriptor, bytes, count, 0)
}

private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
