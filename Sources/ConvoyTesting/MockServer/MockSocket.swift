import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX socket calls the mock server makes, with the platform differences in one place.
///
/// Sockets block: every connection has a thread of its own (see ``MockServer``), so a blocking
/// read holds that thread only, never one of Dispatch's or the concurrency pool's.
enum MockSocket {
  #if canImport(Darwin)
    static let stream = SOCK_STREAM
    static let shutdownBoth = SHUT_RDWR
    static let shutdownWrite = SHUT_WR
    static let sendFlags: Int32 = 0
  #else
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let shutdownBoth = Int32(SHUT_RDWR)
    static let shutdownWrite = Int32(SHUT_WR)
    // A peer that went away must fail the write with EPIPE, not kill the test process.
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #endif

  /// A listening socket on the loopback address of `host`, on a port the system picks.
  static func listen(on host: MockServer.Host) throws -> (descriptor: Int32, port: Int) {
    let family = host == .ipv6Loopback ? AF_INET6 : AF_INET
    let descriptor = socket(family, stream, 0)
    guard descriptor >= 0 else { throw MockServerError.couldNotListen(errno: errno) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let bound: Int32
    if host == .ipv6Loopback {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_addr = in6addr_loopback
      bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
      bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard bound == 0, systemListen(descriptor, 128) == 0 else {
      let code = errno
      close(descriptor)
      throw MockServerError.couldNotListen(errno: code)
    }
    return (descriptor, port(of: descriptor))
  }

  /// The local port a bound socket has.
  private static func port(of descriptor: Int32) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    let family = Int32(storage.ss_family)
    return withUnsafePointer(to: &storage) { pointer -> Int in
      if family == AF_INET6 {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        Int(UInt16(bigEndian: $0.pointee.sin_port))
      }
    }
  }

  /// Waits until `descriptor` is readable or `wake` is (the server stopping), or `timeout` passes.
  ///
  /// - Returns: `true` when `descriptor` is readable and the server is not stopping.
  static func waitReadable(_ descriptor: Int32, wake: Int32, timeout: Duration?) -> Bool {
    var descriptors = [
      pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    let milliseconds = timeout.map { Int32(clamping: $0.milliseconds) } ?? -1
    while true {
      let ready = poll(&descriptors, 2, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0 && descriptors[1].revents == 0 && descriptors[0].revents != 0
    }
  }

  /// Waits for `duration`, or less when `wake` becomes readable (the server stopping) or the
  /// client closes `connection`.
  ///
  /// - Returns: `false` when the wait ended early: the answer should stop there.
  @discardableResult
  static func pause(_ duration: Duration, wake: Int32, connection: Int32 = -1) -> Bool {
    guard duration > .zero else { return true }
    var descriptors = [
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
      pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
    ]
    let deadline = ContinuousClock.now + duration
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return true }
      let ready = poll(&descriptors, 2, Int32(clamping: max(1, left.milliseconds)))
      if ready < 0 && errno != EINTR { return true }
      guard ready > 0 else { continue }
      if descriptors[0].revents != 0 { return false }
      if descriptors[1].revents != 0 {
        if peerClosed(connection) { return false }
        // The client sent more (a pipelined request): stop watching it, or poll would spin.
        descriptors[1].fd = -1
      }
    }
  }

  /// Whether the client closed its side: the connection reads as ended without consuming data.
  private static func peerClosed(_ descriptor: Int32) -> Bool {
    var byte: UInt8 = 0
    let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
  }

  /// Writes all of `bytes`; `false` once the peer is gone.
  static func send(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
    let array = Array(bytes)
    var offset = 0
    while offset < array.count {
      let written = array.withUnsafeBytes { buffer in
        systemSend(
          descriptor, buffer.baseAddress! + offset, array.count - offset, sendFlags)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Reads what is there (at most `limit` bytes); empty at the end of the stream or on an error.
  static func receive(_ descriptor: Int32, limit: Int = 64 * 1024) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: limit)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, limit, 0)
      }
      if count < 0 && errno == EINTR { continue }
      return count > 0 ? Array(buffer[..<count]) : []
    }
  }

  /// Sends each write at once: without it, a write that follows an unacknowledged one waits for
  /// the client's delayed acknowledgement (Nagle's algorithm), about 40 ms on Linux.
  static func sendWithoutDelay(_ descriptor: Int32) {
    var yes: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Ends both directions of a connection, which wakes a thread blocked reading or writing it.
  static func shutDown(_ descriptor: Int32) {
    _ = shutdown(descriptor, shutdownBoth)
  }

  /// Ends the server's side of `descriptor` and waits, at most `timeout` (or until the server
  /// stops), for the client to close its side, without reading what it still sends.
  ///
  /// A server that answers before reading a body and closes at once closes with bytes unread,
  /// which makes the kernel reset the connection; the reset can reach the client before it has
  /// read the answer, and destroy it. Waiting for the client's close first (`POLLRDHUP`: the
  /// peer ended its side, readable or not) keeps the answer safe and still reads nothing.
  static func awaitPeerClose(_ descriptor: Int32, wake: Int32, timeout: Duration) {
    _ = shutdown(descriptor, shutdownWrite)
    // POLLRDHUP, a Linux flag the Glibc module does not name.
    let peerClosed: Int16 = 0x2000
    var descriptors = [
      pollfd(fd: descriptor, events: peerClosed, revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    let deadline = ContinuousClock.now + timeout
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return }
      let ready = poll(&descriptors, 2, Int32(clamping: max(1, left.milliseconds)))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return }
      if descriptors[1].revents != 0 || descriptors[0].revents != 0 { return }
    }
  }

  /// Closes with a TCP reset instead of an orderly close (`SO_LINGER` with a zero timeout).
  static func reset(_ descriptor: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
  }
}

extension Duration {
  /// The duration in whole milliseconds, rounded up so that a short pause is never none.
  fileprivate var milliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
  }
}

// The module-level `listen` and `send` are shadowed by the static methods above.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
  listen(descriptor, backlog)
}

private func systemSend(
  _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32
) -> Int {
  send(descriptor, bytes, count, flags)
}
