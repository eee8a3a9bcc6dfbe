#if os(Linux)
  import ConvoyTestSupport
  import Foundation
  import Glibc
  import Testing

  /// A network namespace of a test's own (`ip netns add convoy-conn-…`), so that links can go
  /// down and up without touching the machine's interfaces. Only loopback-range addresses are
  /// ever given inside it.
  struct NetworkNamespace: Sendable {
    let name = "convoy-conn-\(UInt32.random(in: 0...UInt32.max))"

    /// Where `ip` is, or `nil` when iproute2 is not installed.
    static let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether namespaces can be made here: root, `ip`, and `setns` in the C library.
    static var isUsable: Bool { geteuid() == 0 && ip != nil && Setns.function != nil }

    /// Runs `ip arguments…`, bounded in time; throws when it fails.
    func ip(_ arguments: String...) async throws {
      try await Self.run(arguments)
    }

    /// Runs `ip -n NAME arguments…`: inside the namespace.
    func inside(_ arguments: String...) async throws {
      try await Self.run(["-n", name] + arguments)
    }

    /// Deletes the namespace and everything in it (its veth pair too).
    func delete() async {
      try? await Self.run(["netns", "delete", name])
    }

    /// `make()`, run on a thread that entered the namespace and leaves it afterwards: a netlink
    /// socket belongs to the namespace of the thread that creates it.
    func make<Value: Sendable>(_ make: @escaping @Sendable () -> Value) async throws -> Value {
      let path = "/var/run/netns/\(name)"
      let result: Result<Value, NamespaceError> = await withCheckedContinuation { continuation in
        Thread.detachNewThread {
          continuation.resume(returning: Self.entering(path, make))
        }
      }
      return try result.get()
    }

    private static func entering<Value>(_ path: String, _ make: () -> Value) -> Result<
      Value, NamespaceError
    > {
      guard let setns = Setns.function else { return .failure(.init("no setns")) }
      let original = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
      let target = open(path, O_RDONLY | O_CLOEXEC)
      defer {
        if original >= 0 { close(original) }
        if target >= 0 { close(target) }
      }
      guard original >= 0, target >= 0 else { return .failure(.init("cannot open \(path)")) }
      guard setns(target, Setns.network) == 0 else {
        return .failure(.init("setns failed: errno \(errno)"))
      }
      let value = make()
      // Back to the machine's namespace: the thread may be reused by no one, but leave it clean.
      _ = setns(original, Setns.network)
      return .success(value)
    }

    private static func run(_ arguments: [String]) async throws {
      guard let ip else { throw NamespaceError("no ip") }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ip)
      process.arguments = arguments
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      let exit = ProcessExit(process)
      try process.run()
      guard await exit.wait(within: .seconds(30)), process.terminationStatus == 0 else {
        let message = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        throw NamespaceError("ip \(arguments.joined(separator: " ")): \(message)")
      }
    }

    /// `setns(2)`, looked up in the C library: the Glibc module of Swift does not map it.
    private enum Setns {
      static let function: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(nil, "setns").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self)
      }
      /// `CLONE_NEWNET`.
      static let network: Int32 = 0x4000_0000
    }
  }

  struct NamespaceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
#endif
