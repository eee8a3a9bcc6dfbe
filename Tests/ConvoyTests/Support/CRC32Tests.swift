import Testing

@testable import Convoy

@Suite struct CRC32Tests {
  @Test func theStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  @Test func nothingChecksToZero() {
    #expect(CRC32.checksum([UInt8]()) == 0)
  }

  @Test func aChecksumContinuedOverTwoPartsIsTheWholesChecksum() {
    let whole = Array("The quick brown fox jumps over the lazy dog".utf8)
    #expect(CRC32.checksum(whole) == 0x414F_A339)
    let continued = whole[..<10].withUnsafeBytes { first in
      whole[10...].withUnsafeBytes { CRC32.checksum($0, continuing: CRC32.checksum(first)) }
    }
    #expect(continued == 0x414F_A339)
  }
}
