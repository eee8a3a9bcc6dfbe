import Foundation

extension Data {
  /// `count` bytes whose value at index `i` is `byte(i % 256)`, made by copying one 256-byte
  /// block: tests need megabytes of known bytes, and building them one index at a time kept
  /// both threads of the cooperative pool busy for over ten seconds under ThreadSanitizer, long
  /// enough for other tests' calls to pass their deadlines without being scheduled.
  public static func periodic(count: Int, _ byte: (Int) -> UInt8) -> Data {
    let block = Data((0..<256).map(byte))
    var data = Data(capacity: count + block.count)
    while data.count < count { data.append(block) }
    return data.prefix(count)
  }
}
