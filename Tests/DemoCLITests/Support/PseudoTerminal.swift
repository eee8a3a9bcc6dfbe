import ConvoyTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal, so tests can run democli as if a person sat at a terminal: its standard
/// streams are the terminal's device, and the test reads and types on the other side.
final class PseudoTerminal: @unchecked Sendable {
  // Only the test's own thread touches these after init.
  private let controller: Int32
  let device: FileHandle
  private(set) var transcript = ""

  init() throws {
    var controller: Int32 = -1
    var deviceDescriptor: Int32 = -1
    guard openpty(&controller, &deviceDescriptor, nil, nil, nil) == 0 else {
      throw POSIXError(.ENOTTY)
    }
    self.controller = controller
    device = FileHandle(fileDescriptor: deviceDescriptor, closeOnDealloc: true)
    _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(controller)
  }

  /// Reads what the program wrote until `text` appears or `limit` seconds pass.
  @discardableResult
  func read(until text: String, limit: TimeInterval = 10) async -> Bool {
    let seen = try? await poll(every: .milliseconds(10), within: .seconds(limit)) {
      drain()
      return transcript.contains(text) ? true : nil
    }
    return seen ?? false
  }

  /// Reads whatever is waiting.
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = systemRead(controller, &buffer, buffer.count)
      guard count > 0 else { return }
      transcript += String(decoding: buffer[0..<count], as: UTF8.self)
    }
  }

  /// Types `text` as a person would.
  func type(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { pointer in
      write(controller, pointer.baseAddress, pointer.count - 1)
    }
  }
}

// Inside the terminal, `read` names its own method; this reaches the system call.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}
