import BenchmarkSupport
import Foundation

/// Convoy, websocket-kit and WSClient against one echo server (another process), in one process,
/// interleaved.
///
/// A cell is a message size (1 KB, 64 KB) × compression (off, on) × messages in flight: 1 is
/// the echo round trip (send one, await its echo, send the next), `WS_BENCH_WINDOW` (default 16)
/// is bulk (the next message goes when an echo comes back, so that many are always on their
/// way). Every client that can runs every cell for `WS_BENCH_SECONDS` (default 2) on a WebSocket
/// it opened once for the whole run (one compressed, one not); a round runs every cell of every
/// client once, and `WS_BENCH_ROUNDS` (default 5) rounds are run, so that load elsewhere on the
/// machine lands on every client alike. The figures are the medians over the rounds. CPU is
/// `getrusage` of this whole process (the clients'; the server is another process), and the
/// server's own CPU time for the same seconds is read from `/proc/PID/stat`: its share of a core
/// shows whether it was the limit.
func runEchoBenchmark(server: EchoServer) throws {
  let environment = ProcessInfo.processInfo.environment
  let seconds = environment["WS_BENCH_SECONDS"].flatMap(Double.init) ?? 2
  let rounds = max(1, environment["WS_BENCH_ROUNDS"].flatMap(Int.init) ?? 5)
  let bulkWindow = max(2, environment["WS_BENCH_WINDOW"].flatMap(Int.init) ?? 16)
  let chosen = environment["WS_BENCH_CLIENTS"].map {
    Set($0.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) })
  }
  let kinds = EchoClientKind.allCases.filter { chosen?.contains($0.argument) ?? true }
  // `WS_BENCH_SIZES=1000` and `WS_BENCH_DEFLATE=off` (or `on`) narrow the cells, for profiling
  // one of them.
  let sizes = environment["WS_BENCH_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } }
  let deflateSettings =
    switch environment["WS_BENCH_DEFLATE"] {
    case "off": [false]
    case "on": [true]
    default: [false, true]
    }
  var sockets: [SocketKey: any EchoClient] = [:]
  for kind in kinds {
    let connector = try kind.makeConnector(port: server.port)
    for compression in deflateSettings where !compression || kind.canCompress {
      let client = try runBlocking { () -> Result<any EchoClient, any Error> in
        do { return .success(try await connector.connect(compression: compression)) } catch {
          return .failure(error)
        }
      }.get()
      sockets[SocketKey(kind: kind, compression: compression)] = client
    }
  }
  print(
    "echo: median of \(rounds) interleaved rounds of \(seconds) s per client and cell, "
      + "load before \(loadAverage())")
  if kinds.contains(.websocketKit) {
    print("websocket-kit has no permessage-deflate: the compressed cells have Convoy and WSClient.")
  }
  var cells: [Cell] = []
  for compression in deflateSettings {
    for bytes in sizes ?? [1_000, 64_000] {
      let payload = Payload(bytes: bytes)
      for window in [1, bulkWindow] {
        for kind in kinds {
          guard let client = sockets[SocketKey(kind: kind, compression: compression)] else {
            continue
          }
          cells.append(
            Cell(
              kind: kind, client: client, payload: payload, compression: compression,
              window: window))
        }
      }
    }
  }
  var results: [[Measurement]] = Array(repeating: [], count: cells.count)
  for round in 1...rounds {
    printProgress("round \(round) of \(rounds)")
    for (index, cell) in cells.enumerated() {
      if round == 1 { _ = try cell.measure(seconds: 0.3, server: server) }
      results[index].append(try cell.measure(seconds: seconds, server: server))
    }
  }
  let rows = zip(cells, results).map { Row(cell: $0, measurements: $1) }
  print(Row.header)
  for row in rows { print(row.line) }
  printRatios(rows, of: .convoy, against: .websocketKit, target: "≥ 1.25× msg/s, ≤ 0.8× CPU/msg")
  printRatios(rows, of: .convoy, against: .wsClient, target: "none: the compressed cells' peer")
  try checkServerHeadroom(rows: rows, sockets: sockets, server: server, seconds: seconds)
  print("load after: \(loadAverage())")
  runBlocking { [sockets] in
    for client in sockets.values { await client.close() }
  }
}

struct SocketKey: Hashable {
  let kind: EchoClientKind
  let compression: Bool
}

/// One client on one socket, one message size and window.
private struct Cell {
  let kind: EchoClientKind
  let client: any EchoClient
  let payload: Payload
  let compression: Bool
  let window: Int

  func measure(seconds: Double, server: EchoServer) throws -> Measurement {
    try Measurement.of(server: server) { [client, payload, window] in
      let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
      return try await client.exchange(payload, window: window, until: deadline)
    }
  }
}

/// What one run of `work` cost the client process and the server.
struct Measurement {
  let messages: Int
  let mismatched: Int
  let seconds: Double
  let cpuSeconds: Double
  let serverCPUSeconds: Double
  /// The client process's context switches (getrusage, voluntary and not): each hand-over of a
  /// message to a sleeping thread shows here.
  let contextSwitches: Int

  var messagesPerSecond: Double { Double(messages) / seconds }
  var cpuMicrosecondsPerMessage: Double { cpuSeconds * 1e6 / Double(max(messages, 1)) }
  var switchesPerMessage: Double { Double(contextSwitches) / Double(max(messages, 1)) }
  var serverMicrosecondsPerMessage: Double { serverCPUSeconds * 1e6 / Double(max(messages, 1)) }
  /// The server's CPU time over the wall-clock time: 1 is one core kept busy.
  var serverCores: Double { serverCPUSeconds / seconds }
  var clientCores: Double { cpuSeconds / seconds }

  static func of(
    server: EchoServer, _ work: @escaping @Sendable () async throws -> Exchange
  ) throws -> Measurement {
    let serverBefore = server.cpuTime
    let before = processCPUTime()
    let switchesBefore = processContextSwitches()
    let started = ContinuousClock.now
    let result = runBlocking { () -> Result<Exchange, any Error> in
      do { return .success(try await work()) } catch { return .failure(error) }
    }
    let elapsed = ContinuousClock.now - started
    let exchange = try result.get()
    let wall =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Measurement(
      messages: exchange.messages, mismatched: exchange.mismatched, seconds: wall,
      cpuSeconds: processCPUTime() - before, serverCPUSeconds: server.cpuTime - serverBefore,
      contextSwitches: processContextSwitches() - switchesBefore)
  }
}

private struct Row {
  let kind: EchoClientKind
  let bytes: Int
  let compression: Bool
  let window: Int
  let messagesPerSecond: Double
  let cpuMicroseconds: Double
  let switches: Double
  let serverMicroseconds: Double
  let serverCores: Double
  let clientCores: Double
  let messages: Int
  let mismatched: Int

  init(cell: Cell, measurements: [Measurement]) {
    kind = cell.kind
    bytes = cell.payload.count
    compression = cell.compression
    window = cell.window
    messagesPerSecond = median(measurements.map(\.messagesPerSecond))
    cpuMicroseconds = median(measurements.map(\.cpuMicrosecondsPerMessage))
    switches = median(measurements.map(\.switchesPerMessage))
    serverMicroseconds = median(measurements.map(\.serverMicrosecondsPerMessage))
    serverCores = median(measurements.map(\.serverCores))
    clientCores = median(measurements.map(\.clientCores))
    messages = measurements.map(\.messages).reduce(0, +)
    mismatched = measurements.map(\.mismatched).reduce(0, +)
  }

  var cellName: String {
    "\(bytes / 1_000) KB, \(compression ? "deflate" : "plain"), "
      + (window == 1 ? "round trip" : "\(window) in flight")
  }

  static let header =
    "client".padded(16) + "size".padded(7) + "deflate".padded(9) + "in flight".padded(11)
    + "msg/s".padded(9) + "MB/s".padded(8) + "CPU µs/msg".padded(12) + "switches/msg".padded(14)
    + "client cores".padded(14)
    + "server µs/msg".padded(15) + "server cores".padded(14) + "messages".padded(10) + "bad"

  var line: String {
    kind.rawValue.padded(16) + "\(bytes / 1_000) KB".padded(7)
      + (compression ? "on" : "off").padded(9) + "\(window)".padded(11)
      + String(format: "%.0f", messagesPerSecond).padded(9)
      + String(format: "%.1f", messagesPerSecond * Double(bytes) / 1e6).padded(8)
      + String(format: "%.1f", cpuMicroseconds).padded(12)
      + String(format: "%.2f", switches).padded(14)
      + String(format: "%.2f", clientCores).padded(14)
      + String(format: "%.1f", serverMicroseconds).padded(15)
      + String(format: "%.2f", serverCores).padded(14) + "\(messages)".padded(10)
      + "\(mismatched)"
  }
}

private func printRatios(
  _ rows: [Row], of kind: EchoClientKind, against baseline: EchoClientKind, target: String
) {
  var lines: [String] = []
  for row in rows where row.kind == kind {
    guard
      let base = rows.first(where: {
        $0.kind == baseline && $0.bytes == row.bytes && $0.compression == row.compression
          && $0.window == row.window
      })
    else { continue }
    lines.append(
      "  \(row.cellName): "
        + String(
          format: "%.2f× msg/s, %.2f× CPU per message",
          row.messagesPerSecond / base.messagesPerSecond,
          row.cpuMicroseconds / base.cpuMicroseconds))
  }
  guard !lines.isEmpty else { return }
  print("\n\(kind.rawValue) / \(baseline.rawValue) (target \(target)):")
  for line in lines { print(line) }
}

/// Shows whether the server held any client back: for the cell with the most messages per
/// second, the same client runs it on two sockets at once. If the server were the limit, two
/// sockets together would get no more than one.
private func checkServerHeadroom(
  rows: [Row], sockets: [SocketKey: any EchoClient], server: EchoServer, seconds: Double
) throws {
  guard let fastest = rows.max(by: { $0.messagesPerSecond < $1.messagesPerSecond }) else { return }
  let key = SocketKey(kind: fastest.kind, compression: fastest.compression)
  guard let first = sockets[key] else { return }
  let connector = try fastest.kind.makeConnector(port: server.port)
  let second = try runBlocking { () -> Result<any EchoClient, any Error> in
    do { return .success(try await connector.connect(compression: fastest.compression)) } catch {
      return .failure(error)
    }
  }.get()
  let payload = Payload(bytes: fastest.bytes)
  let window = fastest.window
  let both = try Measurement.of(server: server) {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    async let one = first.exchange(payload, window: window, until: deadline)
    async let other = second.exchange(payload, window: window, until: deadline)
    let (a, b) = try await (one, other)
    return Exchange(messages: a.messages + b.messages, mismatched: a.mismatched + b.mismatched)
  }
  runBlocking { await second.close() }
  print(
    "\nserver headroom: \(fastest.kind.rawValue), \(fastest.cellName), the fastest cell: "
      + String(
        format: "one socket %.0f msg/s (server %.2f cores), two at once %.0f msg/s in all "
          + "(server %.2f cores, clients %.2f cores)",
        fastest.messagesPerSecond, fastest.serverCores, both.messagesPerSecond, both.serverCores,
        both.clientCores))
}
