import Convoy
import Foundation

/// Peak resident memory of large transfers, each in a fresh child process (`VmHWM` is a
/// process's high-water mark, so cases must not share one).
///
/// `convoy-benchmarks memory` starts nginx with the large file and runs
/// `convoy-benchmarks memory-case <case> <transport> <port> <folder>` once per case; the child
/// prints one line of results, which the parent checks (the downloaded copy against the source's
/// checksum, an upload's answer and byte count) and tabulates. Uploads are measured on curl only:
/// `URLSessionTransport` refuses streamed bodies.
func runMemoryBenchmark() {
  guard let binary = LocalNginx.binary() else {
    print("memory: SKIPPED, nginx is not installed (`apt-get install nginx-light`).")
    return
  }
  let byteCount = TransferFiles.byteCount
  let expected: FileChecksum
  let nginx: LocalNginx
  do {
    let source = try TransferFiles.sourceFile(byteCount: byteCount)
    guard let checksum = FileChecksum(path: source.path) else {
      throw BenchmarkError("cannot read \(source.path)")
    }
    expected = checksum
    nginx = try LocalNginx.start(binary: binary, largeFile: source)
  } catch {
    print("memory: SKIPPED, \(error)")
    return
  }
  defer { nginx.stop() }
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-memory-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  print(
    "memory: \(byteCount >> 20) MiB file from \(nginx.version) on 127.0.0.1:\(nginx.port), "
      + "\(curlDescription()), default StreamOptions (1 MiB buffer), one child process per case, "
      + "limit 64 MB peak RSS (VmHWM)")
  print(
    "case".padded(14) + "transport".padded(11) + "bytes".padded(12) + "seconds".padded(9)
      + "MB/s".padded(7) + "RSS at start".padded(14) + "peak RSS".padded(10) + "verdict")
  let environment = ProcessInfo.processInfo.environment
  let transports =
    environment["CONVOY_BENCH_NO_URLSESSION"] == nil ? ["curl", "urlsession"] : ["curl"]
  // For looking at one case, e.g. CONVOY_BENCH_ONLY="download urlsession".
  let only = environment["CONVOY_BENCH_ONLY"]
  for transport in transports {
    var idlePeak: Int?
    for memoryCase in MemoryCase.allCases {
      if let only, !"\(memoryCase.rawValue) \(transport)".contains(only) { continue }
      if memoryCase.isUpload, transport != "curl" { continue }
      let line = runChild(memoryCase, transport: transport, port: nginx.port, folder: folder)
      let fields = MemoryFields(line)
      if memoryCase == .idle { idlePeak = fields.peak }
      print(
        report(
          fields, memoryCase: memoryCase, transport: transport, expected: expected,
          idlePeak: idlePeak))
    }
  }
}

/// What one child measures.
enum MemoryCase: String, CaseIterable {
  /// Nothing transferred: what the process and Convoy cost before any byte moves.
  case idle
  /// `connection.download` of the whole file.
  case download
  /// `connection.stream` of the whole file, each piece dropped.
  case stream
  /// `connection.stream` read with a 2 ms sleep per piece for `CONVOY_BENCH_SLOW_SECONDS`
  /// (default 10), then abandoned: the transfer must pause, not pile bytes up.
  case slowReader = "slow-reader"
  /// `RequestBody.file` of the whole file, `POST`ed to nginx's `/upload`.
  case uploadFile = "upload-file"
  /// The whole file as 64 KiB chunks of an `AsyncSequence` (`RequestBody.stream` with its
  /// length), `POST`ed to nginx's `/upload`.
  case uploadStream = "upload-stream"

  var isUpload: Bool { self == .uploadFile || self == .uploadStream }

  /// Growth of the peak over the idle process's that an upload must stay under.
  static let uploadGrowthLimit = 16_000_000
}

/// The `key=value` fields of a child's line.
private struct MemoryFields {
  let values: [String: String]

  init(_ line: String) {
    var values: [String: String] = [:]
    for pair in line.split(separator: " ") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    self.values = values
  }

  subscript(_ key: String) -> String? { values[key] }

  /// The peak resident set in KiB, when the child said.
  var peak: Int? { values["peak_kib"].flatMap(Int.init) }
}

private func runChild(
  _ memoryCase: MemoryCase, transport: String, port: Int, folder: URL
) -> String {
  let process = Process()
  process.executableURL = Bundle.main.executableURL
  process.arguments = ["memory-case", memoryCase.rawValue, transport, "\(port)", folder.path]
  let output = Pipe()
  process.standardOutput = output
  do {
    try process.run()
  } catch {
    return "error=\(error)"
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  return text.split(separator: "\n").last.map(String.init) ?? "error=no output"
}

private func report(
  _ fields: MemoryFields, memoryCase: MemoryCase, transport: String, expected: FileChecksum,
  idlePeak: Int?
) -> String {
  let bytes = Int(fields["bytes"] ?? "") ?? 0
  let seconds = Double(fields["seconds"] ?? "") ?? 0
  let start = Int(fields["start_kib"] ?? "") ?? 0
  let peak = Int(fields["peak_kib"] ?? "") ?? 0
  var verdict: String
  if let error = fields["error"] {
    verdict = "FAILED: \(error)"
  } else {
    verdict = peak * 1_024 < 64_000_000 ? "under 64 MB" : "OVER 64 MB"
    switch memoryCase {
    case .download:
      let copy = fields["file"].flatMap { FileChecksum(path: $0) }
      verdict +=
        copy == expected ? ", byte-identical" : ", COPY DIFFERS (\(copy?.description ?? "none"))"
      if let file = fields["file"] { try? FileManager.default.removeItem(atPath: file) }
    case .stream:
      verdict += bytes == expected.byteCount ? ", every byte read" : ", BYTES MISSING"
      if let pieces = Int(fields["pieces"] ?? ""), pieces > 0 {
        verdict += ", \(pieces) pieces of \(bytes / pieces / 1_024) KiB on average"
      }
    case .uploadFile, .uploadStream:
      verdict +=
        fields["status"] == "204" && bytes == expected.byteCount
          && fields["same_connection"] == "1"
        ? ", 204, every byte sent, same connection after" : ", UPLOAD NOT WHOLE"
      if let idlePeak {
        let growth = (peak - idlePeak) * 1_024
        verdict += String(format: ", %+.1f MB over idle", Double(growth) / 1e6)
        verdict += growth < MemoryCase.uploadGrowthLimit ? " (under 16 MB)" : " (16 MB OR MORE)"
      }
    case .slowReader, .idle:
      break
    }
  }
  let rate = seconds > 0 ? String(format: "%.0f", Double(bytes) / 1e6 / seconds) : "-"
  return memoryCase.rawValue.padded(14) + transport.padded(11) + "\(bytes)".padded(12)
    + String(format: "%.2f", seconds).padded(9) + rate.padded(7)
    + String(format: "%.1f MB", Double(start) * 1_024 / 1e6).padded(14)
    + String(format: "%.1f MB", Double(peak) * 1_024 / 1e6).padded(10) + verdict
}

/// The child: runs one case and prints `key=value` fields on one line.
func runMemoryCase(_ arguments: [String]) {
  guard arguments.count == 4, let memoryCase = MemoryCase(rawValue: arguments[0]),
    let port = Int(arguments[2])
  else {
    print("error=usage:memory-case-<case>-<curl|urlsession>-<port>-<folder>")
    exit(64)
  }
  let transport: any HTTPTransport
  if arguments[1] == "urlsession" {
    transport = URLSessionTransport()
  } else {
    #if os(Linux)
      guard let curl = try? CurlTransport() else {
        print("error=libcurl-unavailable")
        exit(1)
      }
      transport = curl
    #else
      print("error=no-curl-here")
      exit(1)
    #endif
  }
  var configuration = ServerConfiguration.local(port: port)
  // An upload's body is sent once; a retry would hide a failure and count twice.
  if memoryCase.isUpload { configuration.retryPolicy = RetryPolicy(maximumRetries: 0) }
  let connection = ServerConnection(configuration: configuration, transport: transport)
  let request = StaticPath(path: LocalNginx.largeFilePath)
  let destination = URL(fileURLWithPath: arguments[3])
    .appendingPathComponent("\(memoryCase.rawValue)-\(arguments[1]).bin")
  let upload = memoryCase.isUpload ? uploadBody(memoryCase) : nil
  let pieces = PieceCounter()
  let extras = ExtraFields()
  let startKilobytes = residentKilobytes()
  let started = Date()
  let outcome: (bytes: Int64, error: String?) = runBlocking {
    do {
      switch memoryCase {
      case .idle:
        return (0, nil)
      case .uploadFile, .uploadStream:
        guard let body = try upload?.get() else { return (0, "no-body") }
        let sent = await measureConvoyUpload(connection, body: body)
        if let failure = sent.failure { throw BenchmarkError(failure) }
        extras.set("status=\(sent.status) same_connection=\(sent.isSameConnection ? 1 : 0)")
        return (Int64(sent.bytesSent), nil)
      case .download:
        let file = try await connection.download(request, to: destination)
        return (file.byteCount, nil)
      case .stream:
        var count: Int64 = 0
        for try await chunk in try await connection.stream(request).body {
          count += Int64(chunk.count)
          pieces.add()
        }
        return (count, nil)
      case .slowReader:
        let seconds =
          ProcessInfo.processInfo.environment["CONVOY_BENCH_SLOW_SECONDS"].flatMap(Double.init)
          ?? 10
        let deadline = Date().addingTimeInterval(seconds)
        var count: Int64 = 0
        for try await chunk in try await connection.stream(request).body {
          count += Int64(chunk.count)
          if Date() >= deadline { break }
          try await Task.sleep(nanoseconds: 2_000_000)
        }
        return (count, nil)
      }
    } catch {
      return (0, String(describing: error).replacingOccurrences(of: " ", with: "_"))
    }
  }
  let seconds = Date().timeIntervalSince(started)
  var line =
    "case=\(memoryCase.rawValue) bytes=\(outcome.bytes) seconds=\(seconds) "
    + "start_kib=\(startKilobytes) peak_kib=\(peakResidentKilobytes())"
  if memoryCase == .download { line += " file=\(destination.path)" }
  if memoryCase == .stream { line += " pieces=\(pieces.count)" }
  if !extras.text.isEmpty { line += " " + extras.text }
  if let error = outcome.error { line += " error=\(error)" }
  print(line)
}

/// The upload cases' body: the source file, as a file body or as chunks of an `AsyncSequence`.
private func uploadBody(_ memoryCase: MemoryCase) -> Result<RequestBody, any Error> {
  Result {
    let byteCount = TransferFiles.byteCount
    let source = try TransferFiles.sourceFile(byteCount: byteCount)
    return memoryCase == .uploadFile
      ? .file(source) : .stream(FileChunks(path: source.path), length: Int64(byteCount))
  }
}

/// Fields a case adds to its line, set from its task.
private final class ExtraFields: @unchecked Sendable {
  private let lock = NSLock()
  private var value = ""

  func set(_ text: String) { lock.withLock { value = text } }
  var text: String { lock.withLock { value } }
}

/// Counts the pieces a stream handed over, from the reading task.
private final class PieceCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func add() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}
