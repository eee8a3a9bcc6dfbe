import BenchmarkSupport
import Foundation

/// Raw URLSession, AHC, Convoy on curl and Convoy on URLSession against one local nginx, in one
/// process, interleaved, over plain HTTP/1.1 and, when the run has certificates, over HTTPS with
/// HTTP/2 (where the URLSession clients cannot trust the run's authority, see ``PeerServer``).
///
/// Every cell (body size × requests in flight) runs each client for `PEER_BENCH_SECONDS`
/// (default 2) or 100,000 requests, whichever ends first; a round runs every cell of every
/// client once, and `PEER_BENCH_ROUNDS` rounds (default 5) are run, so a burst of load elsewhere
/// on the machine lands on all clients rather than on whichever ran at that moment. Each client
/// is warmed up (0.3 s) before the first round, so its connections are open. The figures shown
/// are the medians over the rounds, of throughput, of CPU per request and of context switches
/// per request separately, and the slowest request (or group) of any round, where a stall shows
/// that medians hide. CPU is the whole process's user + system time (getrusage): nginx is
/// another process. Context switches (getrusage's voluntary and involuntary ones) count the
/// times a thread of the client went to sleep or was preempted: each hand-over of a call to a
/// sleeping thread, and back, shows there.
///
/// - Parameter authorityFile: The run's authority, when nginx has an HTTPS port.
func runThroughputBenchmark(nginx: LocalNginx, authorityFile: URL?) {
  let environment = ProcessInfo.processInfo.environment
  let seconds = environment["PEER_BENCH_SECONDS"].flatMap(Double.init) ?? 2
  let rounds = max(1, environment["PEER_BENCH_ROUNDS"].flatMap(Int.init) ?? 5)
  let inFlightCounts = [1, 8]
  // `PEER_BENCH_CLIENTS=ahc,convoy-curl` measures those clients alone (their command-line
  // names, as `memory-case` takes them): for comparing a few quickly.
  let chosen = environment["PEER_BENCH_CLIENTS"].map {
    Set($0.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) })
  }
  var servers = [PeerServer(port: nginx.port, authorityFile: nil)]
  if let port = nginx.tlsPort, let authorityFile {
    servers.append(PeerServer(port: port, authorityFile: authorityFile))
  }
  var fetchers: [(PeerServer, PeerClient, any PeerFetcher)] = []
  print("negotiated (checked on each client before it is measured):")
  for server in servers {
    for client in PeerClient.allCases where chosen?.contains(client.argument) ?? true {
      let name = "  \(client.rawValue), \(server.protocolName)"
      guard let fetcher = client.makeFetcher(server: server, concurrency: inFlightCounts.max()!)
      else {
        print("\(name): SKIPPED, cannot run here (libcurl missing?)")
        continue
      }
      let url = server.baseURL.appendingPathComponent("protocol")
      let report = runBlocking { await fetcher.probe(url: url) }
      guard report.failure == nil, let serverProtocol = report.serverProtocol else {
        var reason = report.failure ?? "no answer"
        if server.isTLS, client.usesURLSession {
          reason +=
            "; FoundationNetworking trusts only the system's authorities on Linux "
            + "(see PEER_BENCH_TLS_DIR)"
        }
        print("\(name): SKIPPED, \(reason)")
        runBlocking { await fetcher.shutdown() }
        continue
      }
      let check = server.isTLS && serverProtocol != "HTTP/2.0" ? "  <- NOT HTTP/2" : ""
      print(
        "\(name): client says \(report.clientSays ?? "nothing"), nginx \(serverProtocol)"
          + (report.tlsVersion.map { " over \($0)" } ?? "") + check)
      fetchers.append((server, client, fetcher))
    }
  }
  print(
    "throughput: median of \(rounds) interleaved rounds of \(seconds) s per client and cell, "
      + "load before \(loadAverage())")
  var cells: [Cell] = []
  for server in servers {
    for (file, bytes) in LocalNginx.files {
      let url = server.baseURL.appendingPathComponent(file)
      for inFlight in inFlightCounts {
        for (cellServer, client, fetcher) in fetchers where cellServer.port == server.port {
          cells.append(
            Cell(
              client: client, server: server, fetcher: fetcher, bodyBytes: bytes,
              inFlight: inFlight, path: "/\(file)", url: url))
        }
      }
    }
  }
  var results: [[Measurement]] = Array(repeating: [], count: cells.count)
  for round in 1...rounds {
    printProgress("round \(round) of \(rounds)")
    for (index, cell) in cells.enumerated() {
      if round == 1 { _ = cell.measure(seconds: 0.3) }
      results[index].append(cell.measure(seconds: seconds))
    }
  }
  let rows = zip(cells, results).map { cell, measurements in
    Row(
      client: cell.client, server: cell.server, bodyBytes: cell.bodyBytes, inFlight: cell.inFlight,
      requestsPerSecond: median(measurements.map(\.requestsPerSecond)),
      cpuMicroseconds: median(measurements.map(\.cpuMicrosecondsPerRequest)),
      switches: median(measurements.map(\.contextSwitchesPerRequest)),
      slowestMilliseconds: (measurements.map(\.slowestSeconds).max() ?? 0) * 1_000,
      requests: measurements.map(\.requests).reduce(0, +),
      failures: measurements.map(\.failures).reduce(0, +))
  }
  print(Row.header)
  for row in rows { print(row.line) }
  printRatios(rows, of: .convoyOnCurl, against: .asyncHTTPClient, target: "≥ 1.25×, CPU ≤ 0.8×")
  printRatios(rows, of: .convoyOnURLSession, against: .rawURLSession, target: "≥ 0.95×")
  printRatios(
    rows, of: .convoyOnCurlWithCompletion, against: .convoyOnCurl, target: "within 5 % (0.95×)")
  printRatios(
    rows, of: .convoyOnCurlAsJobs, against: .convoyOnCurl,
    target: "≥ 0.9× at 8 in flight: a job of 8 calls against 8 lone calls")
  printRatios(
    rows, of: .convoyOnCurlInLockStep, against: .convoyOnCurl,
    target: "none: what waiting for a group's slowest call costs, without a job")
  printRatios(
    rows, of: .convoyOnCurlAsJobs, against: .convoyOnCurlInLockStep,
    target: "none: what a job costs beyond the same group of awaited calls")
  print("load after: \(loadAverage())")
  runBlocking { [fetchers] in
    for (_, _, fetcher) in fetchers { await fetcher.shutdown() }
  }
}

/// One client fetching one file with a number of requests in flight.
private struct Cell {
  let client: PeerClient
  let server: PeerServer
  let fetcher: any PeerFetcher
  let bodyBytes: Int
  let inFlight: Int
  let path: String
  let url: URL

  /// Keeps `inFlight` requests going, each awaited by its own child task, until the budget is
  /// spent.
  func measure(seconds: Double) -> Measurement {
    let budget = RequestBudget(limit: 100_000, seconds: seconds)
    let before = processCPUTime()
    let switchesBefore = processContextSwitches()
    let started = Date()
    let (fetcher, path, url, inFlight) = (self.fetcher, self.path, self.url, self.inFlight)
    runBlocking {
      // A client that fetches a group at a time (a job of `inFlight` calls) is driven by one
      // task, group after group.
      if await fetcher.fetchGroup(0, path: path, url: url) != nil {
        while case let granted = budget.claim(upTo: inFlight), granted > 0 {
          let started = DispatchTime.now().uptimeNanoseconds
          let whole = await fetcher.fetchGroup(granted, path: path, url: url) ?? 0
          budget.record(completed: granted, failures: granted - whole, since: started)
        }
        return
      }
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<inFlight {
          group.addTask {
            while budget.claim(upTo: 1) > 0 {
              let started = DispatchTime.now().uptimeNanoseconds
              let ok = await fetcher.fetch(path: path, url: url)
              budget.record(completed: 1, failures: ok ? 0 : 1, since: started)
            }
          }
        }
      }
    }
    let elapsed = Date().timeIntervalSince(started)
    let (completed, failures, slowest) = budget.counts
    return Measurement(
      requests: completed, failures: failures, seconds: elapsed, slowestSeconds: slowest,
      cpuSeconds: processCPUTime() - before,
      contextSwitches: processContextSwitches() - switchesBefore)
  }
}

/// How many requests a measurement may still start, and how many finished.
final class RequestBudget: @unchecked Sendable {
  private let lock = NSLock()
  private let limit: Int
  private let deadline: Date
  private var started = 0
  private var completed = 0
  private var failures = 0
  private var slowestNanoseconds: UInt64 = 0

  init(limit: Int, seconds: Double) {
    self.limit = limit
    deadline = Date().addingTimeInterval(seconds)
  }

  /// Takes up to `count` requests from the budget: how many may start, 0 once it is spent
  /// (count or time).
  func claim(upTo count: Int) -> Int {
    lock.withLock {
      guard started < limit, Date() < deadline else { return 0 }
      let granted = min(count, limit - started)
      started += granted
      return granted
    }
  }

  /// Counts requests that ended; `started` is when they (or their group) began, for the slowest.
  func record(completed: Int, failures: Int, since started: UInt64) {
    let took = DispatchTime.now().uptimeNanoseconds - started
    lock.withLock {
      self.completed += completed
      self.failures += failures
      slowestNanoseconds = max(slowestNanoseconds, took)
    }
  }

  var counts: (completed: Int, failures: Int, slowestSeconds: Double) {
    lock.withLock { (completed, failures, Double(slowestNanoseconds) / 1e9) }
  }
}

private struct Measurement {
  let requests: Int
  let failures: Int
  let seconds: Double
  /// The longest a request (or a group, for the clients that fetch a group at a time) took.
  let slowestSeconds: Double
  let cpuSeconds: Double
  let contextSwitches: Int

  var requestsPerSecond: Double { Double(requests) / seconds }
  var cpuMicrosecondsPerRequest: Double { cpuSeconds * 1e6 / Double(max(requests, 1)) }
  var contextSwitchesPerRequest: Double { Double(contextSwitches) / Double(max(requests, 1)) }
}

private struct Row {
  let client: PeerClient
  let server: PeerServer
  let bodyBytes: Int
  let inFlight: Int
  let requestsPerSecond: Double
  let cpuMicroseconds: Double
  /// Context switches of the client's process per request: the thread hand-overs a call costs.
  let switches: Double
  /// The slowest request (or group) of every round: a stall shows here when medians hide it.
  let slowestMilliseconds: Double
  let requests: Int
  let failures: Int

  static let header =
    "client".padded(22) + "protocol".padded(10) + "body".padded(8) + "in flight".padded(11)
    + "req/s".padded(10)
    + "CPU µs/req".padded(12) + "switches/req".padded(14) + "slowest ms".padded(12)
    + "requests".padded(10) + "failures"

  var line: String {
    client.rawValue.padded(22) + server.protocolName.padded(10)
      + "\(bodyBytes / 1_024) KB".padded(8) + "\(inFlight)".padded(11)
      + String(format: "%.0f", requestsPerSecond).padded(10)
      + String(format: "%.0f", cpuMicroseconds).padded(12)
      + String(format: "%.1f", switches).padded(14)
      + String(format: "%.1f", slowestMilliseconds).padded(12) + "\(requests)".padded(10)
      + "\(failures)"
  }
}

private func printRatios(
  _ rows: [Row], of client: PeerClient, against baseline: PeerClient, target: String
) {
  print("\n\(client.rawValue) / \(baseline.rawValue) (target \(target)):")
  for name in ["HTTP/1.1", "HTTPS h2"] {
    for bodyBytes in LocalNginx.files.map(\.1) {
      for inFlight in Set(rows.map(\.inFlight)).sorted() {
        let cell = rows.filter {
          $0.server.protocolName == name && $0.bodyBytes == bodyBytes && $0.inFlight == inFlight
        }
        guard let base = cell.first(where: { $0.client == baseline }),
          let row = cell.first(where: { $0.client == client })
        else { continue }
        let speed = row.requestsPerSecond / base.requestsPerSecond
        let cpu = row.cpuMicroseconds / base.cpuMicroseconds
        print(
          "  \(name), \(bodyBytes / 1_024) KB, \(inFlight) in flight: "
            + String(format: "%.2f× throughput, %.2f× CPU per request", speed, cpu))
      }
    }
  }
}
