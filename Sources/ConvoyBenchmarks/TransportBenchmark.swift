import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Raw URLSession, Convoy on URLSession and Convoy on curl against a local nginx, over plain
/// HTTP/1.1 and over HTTPS with HTTP/2, on warm connections and on a new connection per request.
///
/// Each cell runs for `CONVOY_BENCH_SECONDS` (default 2) or 100,000 requests, whichever ends
/// first, `CONVOY_BENCH_ROUNDS` times (default 3, the median is shown), after a short warm-up on
/// the same client, so connections are already open. CPU is the
/// whole process's user + system time (getrusage), which is the client's: nginx is another process.
/// `CONVOY_BENCH_ONLY` runs only the cells whose name contains it (for profiling one).
///
/// The HTTPS cells need the `openssl` command, which makes a private authority and a server
/// certificate for the run (``BenchmarkCertificates``), in a temporary folder removed at the end,
/// or in `CONVOY_BENCH_TLS_DIR`, kept and reused. Without it they are skipped with the reason.
func runTransportBenchmark() {
  guard let binary = LocalNginx.binary() else {
    print(
      """
      transports: SKIPPED, nginx is not installed (looked in \
      \(LocalNginx.candidates.joined(separator: ", "))).
      Install it with `apt-get install nginx-light` and run again.
      """)
    return
  }
  let environment = ProcessInfo.processInfo.environment
  let keptFolder = environment["CONVOY_BENCH_TLS_DIR"].map { URL(fileURLWithPath: $0) }
  let folder =
    keptFolder
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("convoy-tls-\(UUID())")
  defer { if keptFolder == nil { try? FileManager.default.removeItem(at: folder) } }
  var certificates: BenchmarkCertificates?
  do {
    certificates = try BenchmarkCertificates.make(in: folder)
  } catch {
    print("transports: HTTPS cells SKIPPED, \(error)")
  }
  let nginx: LocalNginx
  do {
    nginx = try LocalNginx.start(binary: binary, certificates: certificates)
  } catch {
    print("transports: SKIPPED, \(error)")
    return
  }
  defer { nginx.stop() }
  let seconds = environment["CONVOY_BENCH_SECONDS"].flatMap(Double.init) ?? 2
  let rounds = max(1, environment["CONVOY_BENCH_ROUNDS"].flatMap(Int.init) ?? 3)
  // For profiling one cell, e.g. CONVOY_BENCH_ONLY="Convoy on curl, 1 KB, 1 in flight".
  let only = environment["CONVOY_BENCH_ONLY"]
  #if os(Linux)
    let curl = CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
  #else
    let curl = "no curl transport on this platform"
  #endif
  let tlsPorts = nginx.tlsPort.map { ", HTTPS h2 on :\($0)" } ?? ""
  print(
    "transports: \(nginx.version) on 127.0.0.1:\(nginx.port)\(tlsPorts), \(curl), "
      + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, load \(loadAverageText()), "
      + "median of \(rounds) rounds of \(seconds) s per cell")
  let authority = certificates?.authorityFile
  var servers = [BenchmarkServer(port: nginx.port, authorityFile: nil, isCold: false)]
  servers.append(BenchmarkServer(port: nginx.coldPort, authorityFile: nil, isCold: true))
  if let port = nginx.tlsPort {
    servers.append(BenchmarkServer(port: port, authorityFile: authority, isCold: false))
  }
  if let port = nginx.coldTLSPort {
    servers.append(BenchmarkServer(port: port, authorityFile: authority, isCold: true))
  }
  let cells = benchmarkCells(servers: servers, only: only)
  var results: [[TransportMeasurement]] = Array(repeating: [], count: cells.count)
  // Rounds interleave the clients, so a burst of load elsewhere on the machine lands on all of
  // them rather than on whichever happened to run at that moment.
  for round in 1...rounds {
    printProgress("round \(round) of \(rounds)")
    for (index, cell) in cells.enumerated() {
      if round == 1 { _ = cell.measure(seconds: 0.3) }
      results[index].append(cell.measure(seconds: seconds))
    }
  }
  let rows = zip(cells, results).map { cell, measurements in
    let median = measurements.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[
      measurements.count / 2]
    return TransportRow(
      client: cell.client, server: cell.server, bodyBytes: cell.bodyBytes,
      inFlight: cell.inFlight, result: median)
  }
  printTransportReport(rows)
  print("load after: \(loadAverageText())")
}

/// One client fetching one file with a number of requests in flight.
private struct BenchmarkCell {
  let client: TransportClient
  let server: BenchmarkServer
  let fetcher: Fetcher
  let bodyBytes: Int
  let inFlight: Int
  let path: String
  let url: URL

  func measure(seconds: Double) -> TransportMeasurement {
    ConvoyBenchmarks.measure(fetcher, path: path, url: url, inFlight: inFlight, seconds: seconds)
  }
}

/// Every cell that can run, each with a client of its own whose protocol was checked first:
/// warm servers get both files × 1 and 8 in flight, the cold ones (a new connection per
/// request) the small file, one at a time.
private func benchmarkCells(servers: [BenchmarkServer], only: String?) -> [BenchmarkCell] {
  var cells: [BenchmarkCell] = []
  var checks = ProtocolChecks()
  for server in servers {
    let files = server.isCold ? Array(LocalNginx.files.prefix(1)) : LocalNginx.files
    for (file, size) in files {
      let url = server.baseURL.appendingPathComponent(file)
      for inFlight in server.isCold ? [1] : [1, 8] {
        for client in TransportClient.allCases {
          let cold = server.isCold ? ", new connection" : ""
          let name =
            "\(client.rawValue), \(size / 1_024) KB, \(inFlight) in flight\(cold), "
            + server.protocolName
          if let only, !name.contains(only) { continue }
          guard let made = client.makeClient(for: server),
            checks.passes(made, client: client, server: server)
          else { continue }
          cells.append(
            BenchmarkCell(
              client: client, server: server, fetcher: made.fetcher, bodyBytes: size,
              inFlight: inFlight, path: "/\(file)", url: url))
        }
      }
    }
  }
  checks.printSummary()
  return cells
}

/// Asks every client, before it is measured, which protocol it speaks: the client's own answer
/// (`HTTPResponse.httpVersion`, `CURLINFO_HTTP_VERSION`) and nginx's (`$server_protocol`). On a
/// cold server it fetches twice and checks that nginx saw two connections.
private struct ProtocolChecks {
  private var lines: [String] = []
  private var seen: Set<String> = []

  mutating func passes(
    _ made: BenchmarkClient, client: TransportClient, server: BenchmarkServer
  ) -> Bool {
    let url = server.baseURL.appendingPathComponent("protocol")
    let report = made.probe(url)
    let key = "\(client.rawValue), \(server.protocolName)\(server.isCold ? ", new connection" : "")"
    let first = seen.insert(key).inserted
    guard report.failure == nil, let serverProtocol = report.serverProtocol else {
      if first {
        var reason = report.failure ?? "no answer"
        if server.isTLS, client.usesURLSession {
          reason +=
            "; FoundationNetworking trusts only the system's authorities on Linux "
            + "(see CONVOY_BENCH_TLS_DIR)"
        }
        lines.append("  \(key): SKIPPED, \(reason)")
      }
      return false
    }
    guard first else { return true }
    let tls = report.tlsVersion.map { " over \($0)" } ?? ""
    var line =
      "  \(key): client says \(report.clientSays ?? "nothing"), nginx \(serverProtocol)\(tls)"
    if server.isTLS, serverProtocol != "HTTP/2.0" { line += "  <- NOT HTTP/2" }
    if server.isCold {
      let again = made.probe(url)
      line +=
        again.connection != nil && again.connection != report.connection
        ? ", a new connection per request" : "  <- CONNECTION REUSED"
    }
    lines.append(line)
    return true
  }

  func printSummary() {
    print("negotiated (checked on each client before it is measured):")
    for line in lines { print(line) }
  }
}

private func printProgress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\n".utf8))
}

private func measure(
  _ fetcher: Fetcher, path: String, url: URL, inFlight: Int, seconds: Double
) -> TransportMeasurement {
  let budget = RequestBudget(limit: 100_000, seconds: seconds)
  let before = processCPUTime()
  let started = Date()
  let finished = DispatchSemaphore(value: 0)
  switch fetcher {
  case .callback(let fetch):
    for _ in 0..<inFlight {
      chain(fetch, path: path, url: url, run: budget) { finished.signal() }
    }
    for _ in 0..<inFlight { finished.wait() }
  case .async(let fetch):
    Task {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<inFlight {
          group.addTask {
            while budget.claim() { budget.record(await fetch(path, url)) }
          }
        }
      }
      finished.signal()
    }
    finished.wait()
  case .loop(let run):
    run(url, inFlight, budget)
  }
  let elapsed = Date().timeIntervalSince(started)
  let (completed, failures) = budget.counts
  return TransportMeasurement(
    requests: completed, failures: failures, seconds: elapsed,
    cpuSeconds: processCPUTime() - before)
}

/// Keeps one request in flight: each completion starts the next, until the budget is spent.
private func chain(
  _ fetch: @escaping @Sendable (String, URL, @escaping @Sendable (Bool) -> Void) -> Void,
  path: String, url: URL, run: RequestBudget, whenDone: @escaping @Sendable () -> Void
) {
  guard run.claim() else {
    whenDone()
    return
  }
  fetch(path, url) { ok in
    run.record(ok)
    chain(fetch, path: path, url: url, run: run, whenDone: whenDone)
  }
}

/// How many requests a cell may still start, and how many finished.
final class RequestBudget: @unchecked Sendable {
  private let lock = NSLock()
  private let limit: Int
  private let deadline: Date
  private var started = 0
  private var completed = 0
  private var failures = 0

  init(limit: Int, seconds: Double) {
    self.limit = limit
    deadline = Date().addingTimeInterval(seconds)
  }

  func claim() -> Bool {
    lock.withLock {
      guard started < limit, Date() < deadline else { return false }
      started += 1
      return true
    }
  }

  func record(_ ok: Bool) {
    lock.withLock {
      completed += 1
      if !ok { failures += 1 }
    }
  }

  var counts: (completed: Int, failures: Int) { lock.withLock { (completed, failures) } }
}

func processCPUTime() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
