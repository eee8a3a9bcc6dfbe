@testable import Convoy

/// Builds the bytes the kernel sends on a `NETLINK_ROUTE` socket, by hand, for the parser tests.
enum NetlinkBytes {
  static func message(
    type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, payload: [UInt8]
  ) -> [UInt8] {
    var bytes = le(UInt32(16 + payload.count)) + le(type) + le(flags) + le(sequence) + le(UInt32(0))
    bytes += payload
    return padded(bytes)
  }

  /// `struct ifinfomsg`.
  static func link(index: Int32, flags: UInt32) -> [UInt8] {
    [0, 0] + le(UInt16(1)) + le(index) + le(flags) + le(UInt32(0))
  }

  /// `struct rtmsg` and its attributes.
  static func route(
    family: UInt8 = 2, destinationLength: UInt8 = 0, table: UInt8 = 254, type: UInt8 = 1,
    attributes: [[UInt8]] = []
  ) -> [UInt8] {
    [family, destinationLength, 0, 0, table, 3, 0, type] + le(UInt32(0)) + attributes.joined()
  }

  /// `struct rtattr` and its value, padded.
  static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
    padded(le(UInt16(4 + value.count)) + le(type) + value)
  }

  static func outputInterface(_ index: Int32) -> [UInt8] { attribute(4, le(index)) }
  static func destination(_ bytes: [UInt8]) -> [UInt8] { attribute(1, bytes) }

  /// `RTA_MULTIPATH` with one `struct rtnexthop` per interface.
  static func multipath(_ interfaces: [Int32]) -> [UInt8] {
    attribute(9, interfaces.flatMap { le(UInt16(8)) + [0, 0] + le($0) })
  }

  static let up = NetlinkLink.up | NetlinkLink.running | NetlinkLink.lowerUp

  static func le<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  private static func padded(_ bytes: [UInt8]) -> [UInt8] {
    bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
  }
}
