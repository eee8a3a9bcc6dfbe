import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Raw URLSession, Convoy on URLSession and Convoy on curl against a local nginx.
///
/// Each cell runs for `CONVOY_BENCH_SECONDS` (default 2) or 100,000 requests, whichever ends
/// first, `CONVOY_BENCH_ROUNDS` times (default 3, the median is shown), after a short warm-up on
/// the same client, so connections are already open. CPU is the
/// whole process's user + system time (getrusage), which is the client's: nginx is another process.
/// `CONVOY_BENCH_ONLY` runs only the cells whose name contains it (for profiling one).
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
  let nginx: LocalNginx
  do {
    nginx = try LocalNginx.start(binary: binary)
  } catch {
    print("transports: SKIPPED, \(error)")
    return
  }
  defer { nginx.stop() }
  let environment = ProcessInfo.processInfo.environment
  let seconds = environment["CONVOY_BENCH_SECONDS"].flatMap(Double.init) ?? 2
  let rounds = max(1, environment["CONVOY_BENCH_ROUNDS"].flatMap(Int.init) ?? 3)
  // For profiling one cell, e.g. CONVOY_BENCH_ONLY="Convoy on curl, 1 KB, 1 in flight".
  let only = environment["CONVOY_BENCH_ONLY"]
  #if os(Linux)
    let curl = CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
  #else
    let curl = "no curl transport on this platform"
  #endif
  print(
    "transports: \(nginx.version) on 127.0.0.1:\(nginx.port), \(curl), "
      + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, load \(loadAverage()), "
      + "median of \(rounds) rounds of \(seconds) s per cell")
  let cells = benchmarkCells(port: nginx.port, only: only)
  var results: [[Measurement]] = Array(repeating: [], count: cells.count)
  // Rounds interleave the clients, so a burst of load elsewhere on the machine lands on all of
  // them rather than on whichever happened to run at that moment.
  for round in 1...rounds {
    printProgress("round \(round) of \(rounds)")
    for (index, cell) in cells.enumerated() {
      if round == 1 { _ = cell.measure(seconds: 0.3) }
      results[index].append(cell.measure(seconds: seconds))
    }
  }
  print(TransportRow.header)
  let rows = zip(cells, results).map { cell, measurements in
    let median = measurements.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[
      measurements.count / 2]
    return TransportRow(
      client: cell.client, bodyBytes: cell.bodyBytes, inFlight: cell.inFlight, result: median)
  }
  for row in rows { print(row.line) }
  printRatios(rows, against: .rawURLSession)
  // The ceiling: how close each client comes to libcurl driven directly.
  printRatios(rows, against: .rawLibcurl)
  print("load after: \(loadAverage())")
}

/// One client fetching one file with a number of requests in flight.
private struct BenchmarkCell {
  let client: TransportClient
  let fetcher: Fetcher
  let bodyBytes: Int
  let inFlight: Int
  let path: String
  let url: URL

  func measure(seconds: Double) -> Measurement {
    ConvoyBenchmarks.measure(fetcher, path: path, url: url, inFlight: inFlight, seconds: seconds)
  }
}

private func benchmarkCells(port: Int, only: String?) -> [BenchmarkCell] {
  var cells: [BenchmarkCell] = []
  for (file, size) in LocalNginx.files {
    let url = URL(string: "http://127.0.0.1:\(port)/\(file)")!
    for inFlight in [1, 8] {
      for client in TransportClient.allCases {
        let name = "\(client.rawValue), \(size / 1_024) KB, \(inFlight) in flight"
        if let only, !name.contains(only) { continue }
        guard let fetcher = client.makeFetcher(port: port) else { continue }
        cells.append(
          BenchmarkCell(
            client: client, fetcher: fetcher, bodyBytes: size, inFlight: inFlight,
            path: "/\(file)", url: url))
      }
    }
  }
  return cells
}

private func loadAverage() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

private func printProgress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\n".utf8))
}

private func measure(
  _ fetcher: Fetcher, path: String, url: URL, inFlight: Int, seconds: Double
) -> Measurement {
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
  return Measurement(
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

private struct Measurement {
  let requests: Int
  let failures: Int
  let seconds: Double
  let cpuSeconds: Double

  var requestsPerSecond: Double { Double(requests) / seconds }
  var cpuMicrosecondsPerRequest: Double { cpuSeconds * 1e6 / Double(max(requests, 1)) }
}

private struct TransportRow {
  let client: TransportClient
  let bodyBytes: Int
  let inFlight: Int
  let result: Measurement

  static let header =
    "client".padding(22) + "body".padding(8) + "in flight".padding(11) + "requests".padding(10)
    + "req/s".padding(10) + "CPU µs/req".padding(12) + "failures"

  var line: String {
    client.rawValue.padding(22) + "\(bodyBytes / 1_024) KB".padding(8) + "\(inFlight)".padding(11)
      + "\(result.requests)".padding(10)
      + String(format: "%.0f", result.requestsPerSecond).padding(10)
      + String(format: "%.0f", result.cpuMicrosecondsPerRequest).padding(12) + "\(result.failures)"
  }
}

private func printRatios(_ rows: [TransportRow], against baseline: TransportClient) {
  print("\nagainst \(baseline.rawValue) (throughput ×, CPU per request ×):")
  for bodyBytes in Set(rows.map(\.bodyBytes)).sorted() {
    for inFlight in [1, 8] {
      let cell = rows.filter { $0.bodyBytes == bodyBytes && $0.inFlight == inFlight }
      guard let base = cell.first(where: { $0.client == baseline }) else { continue }
      for row in cell where row.client != baseline {
        let speed = row.result.requestsPerSecond / base.result.requestsPerSecond
        let cpu = row.result.cpuMicrosecondsPerRequest / base.result.cpuMicrosecondsPerRequest
        print(
          "  \(bodyBytes / 1_024) KB, \(inFlight) in flight, \(row.client.rawValue): "
            + String(format: "%.2f× throughput, %.3f× CPU", speed, cpu))
      }
    }
  }
}

func processCPUTime() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
