import Convoy
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A 1 GiB download from a local nginx to a file: libcurl driven directly, Convoy on curl and
/// Convoy on URLSession, interleaved in one run, each copy checked byte for byte.
///
/// Each client downloads the file `CONVOY_BENCH_ROUNDS` times (default 3; the median is shown),
/// the clients taking turns and starting from a different one each round. Two times are taken:
/// to the last byte written (the network and the write path) and to the complete file (with the
/// `fsync` both do before they call the file done, and Convoy's rename into place).
func runDownloadBenchmark() {
  guard let binary = LocalNginx.binary() else {
    print("downloads: SKIPPED, nginx is not installed (`apt-get install nginx-light`).")
    return
  }
  let byteCount = TransferFiles.byteCount
  let source: URL
  let expected: FileChecksum
  do {
    source = try TransferFiles.sourceFile(byteCount: byteCount)
    guard let checksum = FileChecksum(path: source.path) else {
      throw BenchmarkError("cannot read \(source.path)")
    }
    expected = checksum
  } catch {
    print("downloads: SKIPPED, \(error)")
    return
  }
  let nginx: LocalNginx
  do {
    nginx = try LocalNginx.start(binary: binary, largeFile: source)
  } catch {
    print("downloads: SKIPPED, \(error)")
    return
  }
  defer { nginx.stop() }
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-downloads-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let rounds = max(
    1, ProcessInfo.processInfo.environment["CONVOY_BENCH_ROUNDS"].flatMap(Int.init) ?? 3)
  // For profiling one client, e.g. CONVOY_BENCH_ONLY="Convoy on curl".
  let only = ProcessInfo.processInfo.environment["CONVOY_BENCH_ONLY"]
  let clients = DownloadClient.available(port: nginx.port).filter {
    only == nil || $0.name.contains(only!)
  }
  print(
    "downloads: \(byteCount >> 20) MiB of pseudo-random bytes (checksum \(expected)) from "
      + "\(nginx.version) on 127.0.0.1:\(nginx.port), \(curlDescription()), "
      + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, load \(loadAverageText()), "
      + "median of \(rounds) interleaved rounds")
  var results: [[DownloadMeasurement]] = Array(repeating: [], count: clients.count)
  for round in 0..<rounds {
    FileHandle.standardError.write(Data("round \(round + 1) of \(rounds)\n".utf8))
    for step in 0..<clients.count {
      let index = (step + round) % clients.count
      let destination = folder.appendingPathComponent("copy-\(index).bin")
      var measurement = clients[index].download(destination)
      measurement.isIdentical = FileChecksum(path: destination.path) == expected
      try? FileManager.default.removeItem(at: destination)
      results[index].append(measurement)
    }
  }
  print(DownloadRow.header)
  let rows = zip(clients, results).map { DownloadRow(client: $0.name, measurements: $1) }
  for row in rows { print(row.line(byteCount: byteCount)) }
  for row in rows {
    for (round, measurement) in row.measurements.enumerated() {
      if let failure = measurement.failure {
        print("  \(row.client), round \(round + 1) failed: \(failure)")
      } else if measurement.ok, !measurement.isIdentical {
        print("  \(row.client), round \(round + 1): the copy DIFFERS from the source")
      }
    }
  }
  if let raw = rows.first(where: { $0.client == DownloadClient.rawName }) {
    print("\nagainst \(raw.client) (throughput to the last byte ×, to the complete file ×, CPU ×):")
    for row in rows where row.client != raw.client && row.median.ok {
      print(
        "  \(row.client): "
          + String(
            format: "%.2f×, %.2f×, %.2f×", raw.median.receiveSeconds / row.median.receiveSeconds,
            raw.median.totalSeconds / row.median.totalSeconds,
            row.median.cpuSeconds / raw.median.cpuSeconds))
    }
  }
  print("load after: \(loadAverageText())")
}

/// One way of downloading the large file.
private struct DownloadClient {
  static let rawName = "raw libcurl"

  let name: String
  let download: (URL) -> DownloadMeasurement

  static func available(port: Int) -> [DownloadClient] {
    let url = URL(string: "http://127.0.0.1:\(port)\(LocalNginx.largeFilePath)")!
    var clients: [DownloadClient] = []
    #if os(Linux)
      if let raw = RawLibcurlDownload() {
        clients.append(
          DownloadClient(name: rawName) { destination in
            let before = processCPUTime()
            let started = Date()
            let result = raw.run(url: url, to: destination.path)
            let finished = Date()
            return DownloadMeasurement(
              ok: result != nil, bytes: result?.bytes ?? 0,
              receiveSeconds: (result?.lastByte ?? finished).timeIntervalSince(started),
              totalSeconds: finished.timeIntervalSince(started),
              cpuSeconds: processCPUTime() - before)
          })
      }
      if let transport = try? CurlTransport() {
        clients.append(convoyClient("Convoy on curl", port: port, transport: transport))
      }
    #endif
    if ProcessInfo.processInfo.environment["CONVOY_BENCH_NO_URLSESSION"] == nil {
      clients.append(
        convoyClient("Convoy on URLSession", port: port, transport: URLSessionTransport()))
    }
    return clients
  }

  /// `connection.download` with a progress handler, as an app showing a progress bar calls it;
  /// the handler notes when the last byte was on disk.
  private static func convoyClient(
    _ name: String, port: Int, transport: any HTTPTransport
  ) -> DownloadClient {
    let connection = ServerConnection(configuration: .local(port: port), transport: transport)
    return DownloadClient(name: name) { destination in
      let lastByte = LastByteClock()
      let before = processCPUTime()
      let started = Date()
      let outcome = runBlocking { () -> Result<DownloadedFile, any Error> in
        do {
          return .success(
            try await connection.download(
              StaticPath(path: LocalNginx.largeFilePath), to: destination
            ) { progress in
              if progress.completedBytes == progress.totalBytes { lastByte.mark() }
            })
        } catch {
          return .failure(error)
        }
      }
      let finished = Date()
      let file = try? outcome.get()
      var measurement = DownloadMeasurement(
        ok: file != nil, bytes: Int(file?.byteCount ?? 0),
        receiveSeconds: (lastByte.date ?? finished).timeIntervalSince(started),
        totalSeconds: finished.timeIntervalSince(started), cpuSeconds: processCPUTime() - before)
      if case .failure(let error) = outcome { measurement.failure = String(describing: error) }
      return measurement
    }
  }
}

/// When the last byte of a download was written, told from the progress handler's thread.
final class LastByteClock: @unchecked Sendable {
  private let lock = NSLock()
  private var marked: Date?

  func mark() {
    let now = Date()
    lock.withLock { marked = now }
  }

  var date: Date? { lock.withLock { marked } }
}

private struct DownloadMeasurement {
  var ok: Bool
  var bytes: Int
  var receiveSeconds: Double
  var totalSeconds: Double
  var cpuSeconds: Double
  var isIdentical = false
  var failure: String?
}

private struct DownloadRow {
  let client: String
  let measurements: [DownloadMeasurement]

  /// The successful round with the median time to the complete file (a failed round's time
  /// means nothing).
  var median: DownloadMeasurement {
    let good = measurements.filter(\.ok)
    guard !good.isEmpty else { return measurements[0] }
    return good.sorted { $0.totalSeconds < $1.totalSeconds }[good.count / 2]
  }

  static let header =
    "client".padded(22) + "MB/s to last byte".padded(19) + "MB/s complete".padded(15)
    + "CPU s".padded(8) + "rounds (MB/s complete)".padded(30) + "copies"

  func line(byteCount: Int) -> String {
    let megabytes = Double(byteCount) / 1e6
    let perRound = measurements.map {
      $0.ok ? String(format: "%.0f", megabytes / $0.totalSeconds) : "failed"
    }
    let identical = measurements.filter { $0.ok && $0.isIdentical }.count
    let rates =
      median.ok
      ? String(format: "%.0f", megabytes / median.receiveSeconds).padded(19)
        + String(format: "%.0f", megabytes / median.totalSeconds).padded(15)
        + String(format: "%.2f", median.cpuSeconds).padded(8)
      : "-".padded(19) + "-".padded(15) + "-".padded(8)
    return client.padded(22) + rates + perRound.joined(separator: " ").padded(30)
      + "\(identical) of \(measurements.count) byte-identical"
  }
}

/// Runs `work` in a task and waits for it on this (non-cooperative) thread.
func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
  let done = DispatchSemaphore(value: 0)
  let result = ResultBox<Value>()
  Task {
    result.value = await work()
    done.signal()
  }
  done.wait()
  return result.value!
}

private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}

func curlDescription() -> String {
  #if os(Linux)
    return CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
  #else
    return "no curl transport on this platform"
  #endif
}

func loadAverageText() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

extension String {
  func padded(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
