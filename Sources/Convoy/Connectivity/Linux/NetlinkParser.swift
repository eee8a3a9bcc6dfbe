/// Reads the messages of a buffer received from a `NETLINK_ROUTE` socket.
///
/// Every length is checked against the bytes that are there before anything is read: a
/// truncated or garbled buffer gives `nil` (the caller then reads the whole table again),
/// never a crash and never a guess.
enum NetlinkParser {
  // linux/netlink.h and linux/rtnetlink.h.
  static let headerSize = 16
  static let noop: UInt16 = 1
  static let errorType: UInt16 = 2
  static let doneType: UInt16 = 3
  static let overrunType: UInt16 = 4
  static let newLink: UInt16 = 16
  static let deleteLink: UInt16 = 17
  static let getLink: UInt16 = 18
  static let newRoute: UInt16 = 24
  static let deleteRoute: UInt16 = 25
  static let getRoute: UInt16 = 26
  /// `NLM_F_DUMP_INTR`: the table changed while the dump was read.
  static let dumpInterrupted: UInt16 = 0x10
  static let linkHeaderSize = 16  // struct ifinfomsg
  static let routeHeaderSize = 12  // struct rtmsg
  static let destinationAttribute: UInt16 = 1  // RTA_DST
  static let outputInterfaceAttribute: UInt16 = 4  // RTA_OIF
  static let priorityAttribute: UInt16 = 6  // RTA_PRIORITY
  static let multipathAttribute: UInt16 = 9  // RTA_MULTIPATH
  static let tableAttribute: UInt16 = 15  // RTA_TABLE

  /// The messages in `bytes`, in order; `nil` when any length in it is impossible.
  static func messages(in bytes: [UInt8]) -> [NetlinkMessage]? {
    bytes.withUnsafeBytes { messages(in: $0) }
  }

  /// The messages in `bytes`, in order; `nil` when any length in it is impossible.
  static func messages(in bytes: UnsafeRawBufferPointer) -> [NetlinkMessage]? {
    var messages: [NetlinkMessage] = []
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= headerSize else { return nil }
      let length = Int(read(UInt32.self, bytes, offset))
      guard length >= headerSize, length <= bytes.count - offset else { return nil }
      let type = read(UInt16.self, bytes, offset + 4)
      let flags = read(UInt16.self, bytes, offset + 6)
      let sequence = read(UInt32.self, bytes, offset + 8)
      let payload = UnsafeRawBufferPointer(
        rebasing: bytes[(offset + headerSize)..<(offset + length)])
      guard let message = message(type: type, sequence: sequence, payload: payload) else {
        return nil
      }
      messages.append(message)
      if flags & dumpInterrupted != 0 { messages.append(.lostTrack) }
      // NLMSG_ALIGN: the next message starts on a 4-byte boundary; the last may be unpadded.
      offset += min(aligned(length), bytes.count - offset)
    }
    return messages
  }

  private static func message(
    type: UInt16, sequence: UInt32, payload: UnsafeRawBufferPointer
  ) -> NetlinkMessage? {
    switch type {
    case doneType:
      return .done(sequence: sequence)
    case errorType:
      guard payload.count >= 4 else { return nil }
      return .error(sequence: sequence, code: read(Int32.self, payload, 0))
    case overrunType:
      return .lostTrack
    case newLink, deleteLink:
      guard payload.count >= linkHeaderSize else { return nil }
      let index = read(Int32.self, payload, 4)
      if type == deleteLink { return .linkRemoved(index: index) }
      return .link(NetlinkLink(index: index, flags: read(UInt32.self, payload, 8)))
    case newRoute, deleteRoute:
      guard let route = route(payload) else { return nil }
      return type == newRoute ? .route(route) : .routeRemoved(route)
    default:
      return .ignored
    }
  }

  private static func route(_ payload: UnsafeRawBufferPointer) -> NetlinkRoute? {
    guard payload.count >= routeHeaderSize else { return nil }
    var route = NetlinkRoute(
      family: payload[0], destinationLength: payload[1], destination: [],
      table: UInt32(payload[4]), type: payload[7], priority: 0, typeOfService: payload[3],
      interfaces: [])
    let attributes = UnsafeRawBufferPointer(rebasing: payload[routeHeaderSize...])
    let isWhole = forEachAttribute(in: attributes) { type, value in
      switch type {
      case destinationAttribute:
        route.destination = Array(value)
      case outputInterfaceAttribute:
        guard value.count >= 4 else { return false }
        route.interfaces.append(read(Int32.self, value, 0))
      case priorityAttribute:
        guard value.count >= 4 else { return false }
        route.priority = read(UInt32.self, value, 0)
      case tableAttribute:
        guard value.count >= 4 else { return false }
        route.table = read(UInt32.self, value, 0)
      case multipathAttribute:
        guard let hops = nextHopInterfaces(value) else { return false }
        route.interfaces += hops
      default:
        break
      }
      return true
    }
    return isWhole ? route : nil
  }

  /// The interface of each `struct rtnexthop` (length, flags, hops, interface index, then its
  /// own attributes) of an `RTA_MULTIPATH` value.
  private static func nextHopInterfaces(_ value: UnsafeRawBufferPointer) -> [Int32]? {
    var interfaces: [Int32] = []
    var offset = 0
    while offset < value.count {
      guard value.count - offset >= 8 else { return nil }
      let length = Int(read(UInt16.self, value, offset))
      guard length >= 8, length <= value.count - offset else { return nil }
      interfaces.append(read(Int32.self, value, offset + 4))
      offset += min(aligned(length), value.count - offset)
    }
    return interfaces
  }

  /// Calls `body` with each `struct rtattr` (length, type, value) of `bytes`; `false` when a
  /// length is impossible or `body` refuses a value.
  private static func forEachAttribute(
    in bytes: UnsafeRawBufferPointer, _ body: (UInt16, UnsafeRawBufferPointer) -> Bool
  ) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= 4 else { return false }
      let length = Int(read(UInt16.self, bytes, offset))
      guard length >= 4, length <= bytes.count - offset else { return false }
      // The top bits are NLA_F_NESTED and NLA_F_NET_BYTEORDER, not part of the type.
      let type = read(UInt16.self, bytes, offset + 2) & 0x3fff
      let value = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + length)])
      guard body(type, value) else { return false }
      offset += min(aligned(length), bytes.count - offset)
    }
    return true
  }

  private static func aligned(_ length: Int) -> Int {
    (length + 3) & ~3
  }

  private static func read<Value: FixedWidthInteger>(
    _: Value.Type, _ bytes: UnsafeRawBufferPointer, _ offset: Int
  ) -> Value {
    bytes.loadUnaligned(fromByteOffset: offset, as: Value.self)
  }
}
