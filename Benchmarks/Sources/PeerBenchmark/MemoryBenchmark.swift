import BenchmarkSupport
import Foundation

/// Peak resident memory with 1,000 requests in flight, for each client, each in a fresh child
/// process (`VmHWM` is a process's high-water mark, so clients must not share one).
///
/// The child starts 1,000 child tasks at once, each awaiting one request for the same file.
/// Each client sends them over the connections it would use anyway: AHC up to 8 HTTP/1.1
/// connections (its default), Convoy a network limit of 8, URLSession its own default; the rest
/// wait inside the client, which is part of what is measured.
func runMemoryBenchmark(nginx: LocalNginx) {
  let count = ProcessInfo.processInfo.environment["PEER_BENCH_IN_FLIGHT"].flatMap(Int.init) ?? 1_000
  print(
    "\nmemory: \(count) requests in flight, one child process per client and body, "
      + "peak RSS (VmHWM)")
  print(
    "client".padded(22) + "body".padded(8) + "RSS after 1 request".padded(21)
      + "peak RSS".padded(11) + "added".padded(10) + "seconds".padded(9) + "failures")
  for (file, bytes) in LocalNginx.files {
    // A job (or a group in lock-step) of a thousand calls measures nothing the lone calls do
    // not: its calls are the same.
    for client in PeerClient.allCases where client.form != .groupJob && client.form != .lockStep {
      let line = memoryCaseLine([client.argument, "\(nginx.port)", file, "\(count)"])
      print(report(line, client: client, bodyBytes: bytes))
    }
  }
}

private func report(_ line: String, client: PeerClient, bodyBytes: Int) -> String {
  let fields = memoryCaseFields(line)
  let prefix = client.rawValue.padded(22) + "\(bodyBytes / 1_024) KB".padded(8)
  if let error = fields["error"] { return prefix + "FAILED: \(error)" }
  let start = Int(fields["start_kib"] ?? "") ?? 0
  let peak = Int(fields["peak_kib"] ?? "") ?? 0
  let seconds = Double(fields["seconds"] ?? "") ?? 0
  return prefix + String(format: "%.1f MB", Double(start) * 1_024 / 1e6).padded(21)
    + String(format: "%.1f MB", Double(peak) * 1_024 / 1e6).padded(11)
    + String(format: "%.1f MB", Double(peak - start) * 1_024 / 1e6).padded(10)
    + String(format: "%.2f", seconds).padded(9) + (fields["failures"] ?? "?")
}

/// The child: `memory-case <client> <port> <file> <count>`; prints `key=value` fields on one line.
func runMemoryCase(_ arguments: [String]) {
  guard arguments.count == 4, let client = PeerClient(argument: arguments[0]),
    let port = Int(arguments[1]), let count = Int(arguments[3]), (1...10_000).contains(count)
  else {
    print("error=usage:memory-case-<client>-<port>-<file>-<count>")
    exit(64)
  }
  guard
    let fetcher = client.makeFetcher(
      server: PeerServer(port: port, authorityFile: nil), concurrency: 8)
  else {
    print("error=client-unavailable")
    exit(1)
  }
  let path = "/\(arguments[2])"
  let url = URL(string: "http://127.0.0.1:\(port)\(path)")!
  // One request first, so that what is loaded once per process (libcurl, NIO's loops, the
  // session) is in the starting figure and the peak shows what the requests in flight add.
  let warmedUp = runBlocking { await fetcher.fetch(path: path, url: url) }
  let startKilobytes = residentKilobytes()
  let started = Date()
  let failures = runBlocking {
    await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<count {
        group.addTask { await fetcher.fetch(path: path, url: url) }
      }
      var failures = 0
      for await ok in group where !ok { failures += 1 }
      return failures
    }
  }
  let seconds = Date().timeIntervalSince(started)
  runBlocking { await fetcher.shutdown() }
  var line =
    "start_kib=\(startKilobytes) peak_kib=\(peakResidentKilobytes()) seconds=\(seconds) "
    + "failures=\(failures)"
  if !warmedUp { line += " error=first-request-failed" }
  print(line)
}
