#if os(Linux)
  import Foundation
  import Glibc

  /// The system's connectivity on Linux, from the kernel's routing and link notifications.
  ///
  /// A `NETLINK_ROUTE` socket joins the groups of link changes and of IPv4 and IPv6 route
  /// changes. At start it asks for one dump of the links and one of the routes; after that it
  /// only listens: nothing polls, no timer runs, and its one thread sleeps in `poll` until the
  /// kernel says something changed.
  ///
  /// ``Connectivity/online`` means: some unicast route outside the local table, other than a
  /// link-local one (`fe80::/10`, `169.254.0.0/16`), leaves through an interface that is not
  /// loopback, is up (`IFF_UP`) and has a carrier (`IFF_LOWER_UP`). An address alone is not
  /// enough (nothing is sent without a route), nor a route through an interface without a carrier
  /// (an unplugged cable keeps its static routes); the kernel adds link-local routes to every
  /// interface that comes up, whether or not a network lies behind it. Until the first dumps are
  /// read the state is ``Connectivity/unknown``.
  ///
  /// When a buffer cannot be read whole (a garbled message), or the kernel says it dropped
  /// messages, the monitor forgets what it knew and asks for the dumps again; the state it
  /// reports stays the last one until the new dumps are read.
  ///
  /// The socket belongs to the network namespace of the thread that creates the monitor. The
  /// thread and the socket end when the monitor is released.
  final class NetlinkConnectivityMonitor: ConnectivityMonitor {
    private let reader: NetlinkReader

    /// Opens the socket, asks for the first dumps and starts listening; `nil` when the system
    /// refuses a netlink socket (a sandbox that forbids them).
    init?() {
      guard let reader = NetlinkReader() else { return nil }
      self.reader = reader
      Thread.detachNewThread(named: "Convoy.netlink") { reader.run() }
    }

    deinit {
      reader.stop()
    }

    /// The state after the last message the kernel sent.
    var connectivity: Connectivity { reader.broadcast.current }

    /// The current state, then each change the kernel's notifications make.
    func updates() -> AsyncStream<Connectivity> {
      reader.broadcast.subscribe()
    }
  }

  /// The socket and its thread's loop. Only the loop's thread touches `session`; other threads
  /// only read the broadcast and call `stop`.
  private final class NetlinkReader: @unchecked Sendable {
    let broadcast = Broadcast(Connectivity.unknown)
    private let socket: Int32
    /// A pipe whose write end `stop` writes to, to wake the loop out of `poll`.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private var session = NetlinkSession()

    // linux/netlink.h, linux/rtnetlink.h, sys/socket.h: the kernel's ABI.
    private static let addressFamily: Int32 = 16  // AF_NETLINK
    private static let routeProtocol: Int32 = 0  // NETLINK_ROUTE
    /// RTMGRP_LINK | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE.
    private static let groups: UInt32 = 0x1 | 0x40 | 0x400
    private static let request: UInt16 = 0x1  // NLM_F_REQUEST
    private static let dump: UInt16 = 0x100 | 0x200  // NLM_F_ROOT | NLM_F_MATCH
    private static let receiveBufferSize: Int32 = 1 << 20
    private static let noBufferSpace: Int32 = 105  // ENOBUFS

    init?() {
      let descriptor = Glibc.socket(
        Self.addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
        Self.routeProtocol)
      guard descriptor >= 0 else { return nil }
      var size = Self.receiveBufferSize
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      var address = Self.address(groups: Self.groups)
      let bound = withUnsafeBytes(of: &address) {
        bind(descriptor, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12)
      }
      var pipe: [Int32] = [-1, -1]
      guard bound == 0, Glibc.pipe(&pipe) == 0 else {
        close(descriptor)
        return nil
      }
      for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      socket = descriptor
      (wakeRead, wakeWrite) = (pipe[0], pipe[1])
      askForDump(session.start())
    }

    /// `struct sockaddr_nl`: family, padding, port id (0: the kernel), multicast groups.
    private static func address(groups: UInt32) -> (UInt16, UInt16, UInt32, UInt32) {
      (UInt16(addressFamily), 0, 0, groups)
    }

    /// Wakes the loop, which closes the socket and ends its thread.
    func stop() {
      var byte: UInt8 = 0
      _ = write(wakeWrite, &byte, 1)
    }

    /// The thread's loop: sleeps until the kernel or `stop` speaks.
    func run() {
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
      defer {
        buffer.deallocate()
        close(socket)
        close(wakeRead)
        close(wakeWrite)
      }
      var descriptors = [
        pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      while true {
        guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
        if descriptors[1].revents != 0 { return }
        guard descriptors[0].revents != 0 else { continue }
        let count = recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if count < 0 {
          if errno == Self.noBufferSpace, let request = session.lostTrack() {
            askForDump(request)
          }
          continue
        }
        let messages = NetlinkParser.messages(
          in: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        let (request, state) = session.receive(messages)
        if let request { askForDump(request) }
        if let state { broadcast.publishChange(state) }
      }
    }

    /// Sends `request`, for every address family.
    private func askForDump(_ request: NetlinkSession.DumpRequest) {
      // A header and a zeroed `struct ifinfomsg` / `struct rtmsg` (family AF_UNSPEC: all).
      let payload =
        request.type == NetlinkParser.getLink
        ? NetlinkParser.linkHeaderSize : NetlinkParser.routeHeaderSize
      var message = [UInt8](repeating: 0, count: NetlinkParser.headerSize + payload)
      message.withUnsafeMutableBytes { bytes in
        bytes.storeBytes(of: UInt32(bytes.count), toByteOffset: 0, as: UInt32.self)
        bytes.storeBytes(of: request.type, toByteOffset: 4, as: UInt16.self)
        bytes.storeBytes(of: Self.request | Self.dump, toByteOffset: 6, as: UInt16.self)
        bytes.storeBytes(of: request.sequence, toByteOffset: 8, as: UInt32.self)
      }
      var kernel = Self.address(groups: 0)
      _ = withUnsafeBytes(of: &kernel) { address in
        message.withUnsafeBytes { bytes in
          sendto(
            socket, bytes.baseAddress, bytes.count, 0,
            address.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12)
        }
      }
    }
  }
#endif
