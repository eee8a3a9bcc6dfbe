#if os(Linux)
  @testable import Convoy
  import ConvoyTestSupport
  import Foundation
  import Testing

  /// The Linux monitor, run inside a namespace of the test's own, sees a link go down and come
  /// back: the kernel's notifications reach it, with nothing polled.
  @Suite(
    .timeLimit(.minutes(1)),
    .enabled(
      if: NetworkNamespace.isUsable,
      "needs root, iproute2's ip and setns to make a network namespace"))
  struct NetlinkConnectivityTests {
    @Test func theMonitorSeesALinkGoDownAndComeBack() async throws {
      let namespace = NetworkNamespace()
      try await namespace.ip("netns", "add", namespace.name)
      do {
        try await linkGoesDownAndComesBack(in: namespace)
      } catch {
        await namespace.delete()
        throw error
      }
      await namespace.delete()
    }

    private func linkGoesDownAndComesBack(in namespace: NetworkNamespace) async throws {
      // A veth pair has a carrier once both ends are up; a loopback-range address gives its
      // end a route (127.1.0.0/24 dev convoy-a), and nothing leaves the namespace.
      try await namespace.inside("link", "add", "convoy-a", "type", "veth", "peer", "convoy-b")
      try await namespace.inside("address", "add", "127.1.0.1/24", "dev", "convoy-a")
      try await namespace.inside("link", "set", "convoy-b", "up")
      try await watchTheLink(in: namespace)
      // The monitor is released: its thread wakes, closes the socket and ends.
      var sockets = try await Self.monitorSockets(in: namespace)
      for _ in 0..<400 where sockets > 0 {
        try await Task.sleep(for: .milliseconds(50))
        sockets = try await Self.monitorSockets(in: namespace)
      }
      #expect(sockets == 0)
    }

    private func watchTheLink(in namespace: NetworkNamespace) async throws {
      let made = try await namespace.make { NetlinkConnectivityMonitor() }
      let monitor = try #require(made, "the kernel refused a netlink socket")
      let states = Locked<[Connectivity]>([])
      let updates = monitor.updates()
      let reader = Task {
        for await state in updates { states.withLock { $0.append(state) } }
      }
      defer { reader.cancel() }
      #expect(try await Self.monitorSockets(in: namespace) == 1)
      // convoy-a, the end with the route, is still down: offline once the dumps are read.
      #expect(try await last(of: states, is: .offline))
      try await namespace.inside("link", "set", "convoy-a", "up")
      #expect(try await last(of: states, is: .online))
      try await namespace.inside("link", "set", "convoy-a", "down")
      #expect(try await last(of: states, is: .offline))
      try await namespace.inside("link", "set", "convoy-a", "up")
      #expect(try await last(of: states, is: .online))
      #expect(monitor.connectivity == .online)
      // Each change was reported once: unknown, offline, online, offline, online at most.
      #expect(states.withLock { $0.count } <= 5)
    }

    /// How many routing sockets listening to links and routes the namespace holds, as its
    /// `/proc/…/net/netlink` lists them (protocol 0, groups 0x441): the monitor's, while it lives.
    private static func monitorSockets(in namespace: NetworkNamespace) async throws -> Int {
      try await namespace.make {
        let table =
          (try? String(contentsOfFile: "/proc/thread-self/net/netlink", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().filter { line in
          let fields = line.split(separator: " ")
          return fields.count > 3 && fields[1] == "0" && fields[3] == "00000441"
        }.count
      }
    }

    /// Whether the last state reported becomes `state` within the bound.
    private func last(of states: Locked<[Connectivity]>, is state: Connectivity) async throws
      -> Bool
    {
      try await poll(every: .milliseconds(5), within: .seconds(20)) {
        states.withLock { $0.last == state } ? true : nil
      } ?? false
    }
  }
#endif
