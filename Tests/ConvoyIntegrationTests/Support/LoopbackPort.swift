import Foundation

/// A loopback port nobody listens on: bound, then closed.
func closedLoopbackPort() throws -> Int {
  #if canImport(Glibc)
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let socketFD = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  defer { close(socketFD) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
    }
  }
  guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
  return Int(UInt16(bigEndian: address.sin_port))
}
