import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A 1 GiB upload of the large file to a local nginx that reads and discards it (`/upload`,
/// answered 204): libcurl driven directly, and Convoy on curl with the file as the body and with
/// the same bytes as an `AsyncSequence`, interleaved in one run.
///
/// Each client uploads `CONVOY_BENCH_ROUNDS` times (default 3; the median is shown), the clients
/// taking turns and starting from a different one each round. nginx answers before it has read
/// the body, so neither its status nor its log says how much arrived; instead each client fetches
/// `/protocol` before and after its upload: the same nginx connection number after it means
/// nginx read exactly the announced length (or up to the last chunk) and parsed the next request
/// where it began, and libcurl kept the connection, which it does only for a request sent whole.
func runUploadBenchmark() {
  #if os(Linux)
    guard let binary = LocalNginx.binary() else {
      print("uploads: SKIPPED, nginx is not installed (`apt-get install nginx-light`).")
      return
    }
    let byteCount = TransferFiles.byteCount
    let source: URL
    let nginx: LocalNginx
    do {
      source = try TransferFiles.sourceFile(byteCount: byteCount)
      nginx = try LocalNginx.start(binary: binary)
    } catch {
      print("uploads: SKIPPED, \(error)")
      return
    }
    defer { nginx.stop() }
    let environment = ProcessInfo.processInfo.environment
    let rounds = max(1, environment["CONVOY_BENCH_ROUNDS"].flatMap(Int.init) ?? 3)
    // For profiling one client, e.g. CONVOY_BENCH_ONLY="Convoy, file".
    let only = environment["CONVOY_BENCH_ONLY"]
    let clients = UploadClient.available(port: nginx.port, source: source, byteCount: byteCount)
      .filter { only == nil || $0.name.contains(only!) }
    print(
      "uploads: \(byteCount >> 20) MiB of pseudo-random bytes from \(source.lastPathComponent) to "
        + "\(nginx.version) on 127.0.0.1:\(nginx.port)\(LocalNginx.uploadPath), "
        + "\(curlDescription()), \(ProcessInfo.processInfo.activeProcessorCount) CPUs, "
        + "load \(loadAverageText()), median of \(rounds) interleaved rounds")
    var results: [[UploadMeasurement]] = Array(repeating: [], count: clients.count)
    var sequenceAlone: [(seconds: Double, cpuSeconds: Double)] = []
    for round in 0..<rounds {
      FileHandle.standardError.write(Data("round \(round + 1) of \(rounds)\n".utf8))
      for step in 0..<clients.count {
        let index = (step + round) % clients.count
        results[index].append(clients[index].upload())
      }
      sequenceAlone.append(iterateAlone(FileChunks(path: source.path)))
    }
    print(UploadRow.header)
    let rows = zip(clients, results).map {
      UploadRow(client: $0.name, measurements: $1, byteCount: byteCount)
    }
    for row in rows { print(row.line) }
    for row in rows {
      for (round, measurement) in row.measurements.enumerated() {
        if let problem = measurement.problem(byteCount: byteCount) {
          print("  \(row.client), round \(round + 1): \(problem)")
        }
      }
    }
    if let raw = rows.first(where: { $0.client == UploadClient.rawName }), raw.hasWholeMedian {
      print("\nagainst \(raw.client) (throughput ×, CPU ×):")
      for row in rows where row.client != raw.client && row.hasWholeMedian {
        print(
          "  \(row.client): "
            + String(
              format: "%.2f×, %.2f×", raw.median.seconds / row.median.seconds,
              row.median.cpuSeconds / raw.median.cpuSeconds))
      }
    }
    let alone = sequenceAlone.sorted { $0.seconds < $1.seconds }[sequenceAlone.count / 2]
    print(
      "\nthe AsyncSequence alone (64 KiB chunks read and dropped, nothing sent; median round): "
        + String(
          format: "%.2f s, %.2f s of CPU, included in the AsyncSequence clients' CPU above",
          alone.seconds, alone.cpuSeconds))
    print("load after: \(loadAverageText())")
  #else
    print("uploads: SKIPPED, Convoy streams request bodies on the curl transport (Linux) only")
  #endif
}

extension LocalNginx {
  /// Where the benchmark nginx takes a body of any size, answers 204 and discards it.
  static let uploadPath = "/upload"
}

#if os(Linux)
  /// One way of uploading the large file.
  private struct UploadClient {
    static let rawName = "raw libcurl"

    let name: String
    let upload: () -> UploadMeasurement

    static func available(port: Int, source: URL, byteCount: Int) -> [UploadClient] {
      var clients: [UploadClient] = []
      let base = "http://127.0.0.1:\(port)"
      if let raw = RawLibcurlUpload() {
        let uploadURL = URL(string: base + LocalNginx.uploadPath)!
        let protocolURL = URL(string: base + "/protocol")!
        clients.append(
          UploadClient(name: rawName) {
            let before = raw.probe(url: protocolURL).connection
            let cpu = processCPUTime()
            let switches = ContextSwitches.now()
            let started = Date()
            let result = raw.upload(path: source.path, byteCount: byteCount, to: uploadURL)
            var measurement = UploadMeasurement(
              seconds: Date().timeIntervalSince(started), cpuSeconds: processCPUTime() - cpu,
              switches: ContextSwitches.now() - switches)
            if let result, result.code == 0 {
              measurement.ok = true
              measurement.status = result.status
              measurement.bytesSent = result.bytesSent
            } else {
              measurement.failure =
                result.map { "curl code \($0.code)" } ?? "cannot open \(source.path)"
            }
            let after = raw.probe(url: protocolURL).connection
            measurement.isSameConnection = before != nil && before == after
            return measurement
          })
      }
      let length = Int64(byteCount)
      let bodies: [(String, @Sendable () -> RequestBody)] = [
        ("Convoy, file", { .file(source) }),
        ("Convoy, AsyncSequence", { .stream(FileChunks(path: source.path), length: length) }),
        ("Convoy, AsyncSequence, chunked", { .stream(FileChunks(path: source.path)) }),
      ]
      for (name, body) in bodies {
        guard let connection = uploadConnection(port: port) else { break }
        clients.append(
          UploadClient(name: name) {
            runBlocking { await measureConvoyUpload(connection, body: body()) }
          })
      }
      return clients
    }
  }
#endif

/// Reads `chunks` to its end without sending them: what the body's source costs on its own.
private func iterateAlone(_ chunks: FileChunks) -> (seconds: Double, cpuSeconds: Double) {
  let cpu = processCPUTime()
  let started = Date()
  runBlocking {
    var iterator = chunks.makeAsyncIterator()
    while let chunk = try? await iterator.next() { _ = chunk }
  }
  return (Date().timeIntervalSince(started), processCPUTime() - cpu)
}

/// A connection on the curl transport that never sends a body twice; `nil` without libcurl.
func uploadConnection(port: Int) -> ServerConnection? {
  #if os(Linux)
    guard let transport = try? CurlTransport() else { return nil }
    var configuration = ServerConfiguration.local(port: port)
    configuration.retryPolicy = RetryPolicy(maximumRetries: 0)
    return ServerConnection(configuration: configuration, transport: transport)
  #else
    return nil
  #endif
}

/// One Convoy upload between two fetches of `/protocol` with the same connection (see
/// ``runUploadBenchmark()`` for why); times and CPU cover the upload only.
func measureConvoyUpload(_ connection: ServerConnection, body: RequestBody) async
  -> UploadMeasurement
{
  let before = await protocolConnection(connection)
  let cpu = processCPUTime()
  let switches = ContextSwitches.now()
  let started = Date()
  let outcome: Result<DataResponse, any Error>
  do {
    outcome = .success(try await connection.execute(UploadRequest(body: body)))
  } catch {
    outcome = .failure(error)
  }
  var measurement = UploadMeasurement(
    seconds: Date().timeIntervalSince(started), cpuSeconds: processCPUTime() - cpu,
    switches: ContextSwitches.now() - switches)
  switch outcome {
  case .success(let answer):
    measurement.ok = true
    measurement.status = answer.response.statusCode
    measurement.bytesSent = answer.metrics?.lastTransfer?.bytesSent ?? 0
  case .failure(let error):
    measurement.failure = String(describing: error)
  }
  let after = await protocolConnection(connection)
  measurement.isSameConnection = before != nil && before == after
  return measurement
}

/// nginx's number for the connection that carried a fetch of `/protocol`.
private func protocolConnection(_ connection: ServerConnection) async -> String? {
  guard let answer = try? await connection.execute(StaticPath(path: "/protocol")) else {
    return nil
  }
  return ProtocolReport(serverSays: String(decoding: answer.data, as: UTF8.self)).connection
}

/// `POST /upload` with the body under test.
private struct UploadRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .post }
  var path: String { LocalNginx.uploadPath }
  let body: RequestBody?
}

struct UploadMeasurement {
  /// The call ended with an answer.
  var ok = false
  var status = 0
  /// The body bytes handed to libcurl (Convoy's `TransferMetrics.bytesSent`) or sent by it
  /// (`CURLINFO_SIZE_UPLOAD_T`).
  var bytesSent = 0
  var seconds: Double
  var cpuSeconds: Double
  var switches: ContextSwitches
  /// nginx served `/protocol` on the same connection before and after the upload.
  var isSameConnection = false
  var failure: String?

  /// What is wrong with this upload, or `nil` when it is whole.
  func problem(byteCount: Int) -> String? {
    if let failure { return "failed: \(failure)" }
    var problems: [String] = []
    if status != 204 { problems.append("status \(status)") }
    if bytesSent != byteCount { problems.append("\(bytesSent) of \(byteCount) bytes sent") }
    if !isSameConnection { problems.append("NOT on the same connection after the upload") }
    return problems.isEmpty ? nil : problems.joined(separator: ", ")
  }
}

/// The process's context switches (`getrusage`, which sums every thread; `/proc/self/status`
/// counts the main thread's only).
struct ContextSwitches {
  var voluntary: Int
  var involuntary: Int

  static func now() -> ContextSwitches {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return ContextSwitches(voluntary: usage.ru_nvcsw, involuntary: usage.ru_nivcsw)
  }

  static func - (lhs: ContextSwitches, rhs: ContextSwitches) -> ContextSwitches {
    ContextSwitches(
      voluntary: lhs.voluntary - rhs.voluntary, involuntary: lhs.involuntary - rhs.involuntary)
  }
}

private struct UploadRow {
  let client: String
  let measurements: [UploadMeasurement]
  let byteCount: Int

  /// The round with the median time among those that sent the whole body (the time of a failed
  /// or cut-short upload means nothing).
  var median: UploadMeasurement {
    let whole = measurements.filter { $0.problem(byteCount: byteCount) == nil }
    guard !whole.isEmpty else { return measurements[0] }
    return whole.sorted { $0.seconds < $1.seconds }[whole.count / 2]
  }

  var hasWholeMedian: Bool { median.problem(byteCount: byteCount) == nil }

  static let header =
    "client".padded(32) + "MB/s".padded(7) + "seconds".padded(9) + "CPU s".padded(8)
    + "switches vol/invol".padded(20) + "rounds (MB/s)".padded(18) + "checks"

  var line: String {
    let megabytes = Double(byteCount) / 1e6
    let perRound = measurements.map {
      $0.ok ? String(format: "%.0f", megabytes / $0.seconds) : "failed"
    }
    let whole = measurements.filter { $0.problem(byteCount: byteCount) == nil }.count
    let median = median
    let figures =
      hasWholeMedian
      ? String(format: "%.0f", megabytes / median.seconds).padded(7)
        + String(format: "%.2f", median.seconds).padded(9)
        + String(format: "%.2f", median.cpuSeconds).padded(8)
        + "\(median.switches.voluntary)/\(median.switches.involuntary)".padded(20)
      : "-".padded(7) + "-".padded(9) + "-".padded(8) + "-".padded(20)
    return client.padded(32) + figures + perRound.joined(separator: " ").padded(18)
      + "\(whole) of \(measurements.count) whole (204, every byte, same connection)"
  }
}
