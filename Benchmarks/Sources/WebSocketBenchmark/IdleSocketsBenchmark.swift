import BenchmarkSupport
import Foundation

/// Peak resident memory with `WS_BENCH_SOCKETS` (default 1,000) WebSockets open and idle, for
/// each client, each in a fresh child process (`VmHWM` is a process's high-water mark, so
/// clients must not share one). Convoy is measured with compression off (as the others) and on
/// (its default).
func runIdleSocketsBenchmark(server: EchoServer) {
  let count = ProcessInfo.processInfo.environment["WS_BENCH_SOCKETS"].flatMap(Int.init) ?? 1_000
  print(
    "\nidle sockets: \(count) WebSockets open, one child process per client, peak RSS (VmHWM)")
  print(
    "client".padded(16) + "deflate".padded(9) + "RSS, 1 socket".padded(15) + "peak RSS".padded(11)
      + "RSS idle".padded(11) + "added".padded(10) + "KB/socket".padded(11) + "open s".padded(8)
      + "failures")
  let cases: [(EchoClientKind, Bool)] = [
    (.convoy, false), (.convoy, true), (.websocketKit, false), (.wsClient, false),
  ]
  for (kind, compression) in cases {
    let line = memoryCaseLine([
      kind.argument, "\(server.port)", "\(count)", compression ? "deflate" : "plain",
    ])
    print(report(line, kind: kind, compression: compression, count: count))
  }
}

private func report(_ line: String, kind: EchoClientKind, compression: Bool, count: Int) -> String {
  let fields = memoryCaseFields(line)
  let prefix = kind.rawValue.padded(16) + (compression ? "on" : "off").padded(9)
  if let error = fields["error"] { return prefix + "FAILED: \(error)" }
  let start = Int(fields["start_kib"] ?? "") ?? 0
  let peak = Int(fields["peak_kib"] ?? "") ?? 0
  let idle = Int(fields["idle_kib"] ?? "") ?? 0
  let seconds = Double(fields["seconds"] ?? "") ?? 0
  func megabytes(_ kibibytes: Int) -> String {
    String(format: "%.1f MB", Double(kibibytes) * 1_024 / 1e6)
  }
  return prefix + megabytes(start).padded(15) + megabytes(peak).padded(11)
    + megabytes(idle).padded(11) + megabytes(peak - start).padded(10)
    + String(format: "%.1f", Double(peak - start) * 1.024 / Double(max(count - 1, 1))).padded(11)
    + String(format: "%.2f", seconds).padded(8) + (fields["failures"] ?? "?")
}

/// The child: `memory-case <client> <port> <count> <plain|deflate>`; opens one WebSocket and
/// echoes one message on it (so that what is loaded once per process is in the starting
/// figure), then opens the rest, 32 at a time, and leaves them idle for a second; prints
/// `key=value` fields on one line.
func runIdleSocketsCase(_ arguments: [String]) async {
  guard arguments.count == 4, let kind = EchoClientKind(argument: arguments[0]),
    let port = Int(arguments[1]), let count = Int(arguments[2]), (1...20_000).contains(count)
  else {
    print("error=usage:memory-case-<client>-<port>-<count>-<plain|deflate>")
    exit(64)
  }
  let compression = arguments[3] == "deflate"
  let limit = raiseOpenFileLimit()
  guard limit > count + 64 else {
    print("error=open-file-limit-\(limit)")
    exit(1)
  }
  let connector: any EchoConnector
  let first: any EchoClient
  do {
    connector = try kind.makeConnector(port: port)
    first = try await connector.connect(compression: compression)
    _ = try await first.exchange(Payload(bytes: 1_000), window: 1, until: .now)
  } catch {
    print("error=\("\(error)".replacingOccurrences(of: " ", with: "_"))")
    exit(1)
  }
  let startKilobytes = residentKilobytes()
  let started = Date()
  var sockets: [any EchoClient] = [first]
  var failures = 0
  await withTaskGroup(of: (any EchoClient)?.self) { group in
    var opening = 1
    func addNext() {
      guard opening < count else { return }
      opening += 1
      group.addTask { try? await connector.connect(compression: compression) }
    }
    for _ in 0..<32 { addNext() }
    for await socket in group {
      if let socket { sockets.append(socket) } else { failures += 1 }
      addNext()
    }
  }
  let seconds = Date().timeIntervalSince(started)
  try? await Task.sleep(for: .seconds(1))
  let idleKilobytes = residentKilobytes()
  let peakKilobytes = peakResidentKilobytes()
  print(
    "start_kib=\(startKilobytes) peak_kib=\(peakKilobytes) idle_kib=\(idleKilobytes) "
      + "seconds=\(seconds) failures=\(failures) open=\(sockets.count)")
  exit(0)
}
