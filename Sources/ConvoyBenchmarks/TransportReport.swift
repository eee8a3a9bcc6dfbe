import Foundation

/// One cell's figures.
struct TransportMeasurement {
  let requests: Int
  let failures: Int
  let seconds: Double
  let cpuSeconds: Double

  var requestsPerSecond: Double { Double(requests) / seconds }
  var cpuMicrosecondsPerRequest: Double { cpuSeconds * 1e6 / Double(max(requests, 1)) }
  /// Wall time per request, one at a time: what a request on a new connection costs in all.
  var microsecondsPerRequest: Double { seconds * 1e6 / Double(max(requests, 1)) }
}

/// One cell's median, as printed.
struct TransportRow {
  let client: TransportClient
  let server: BenchmarkServer
  let bodyBytes: Int
  let inFlight: Int
  let result: TransportMeasurement

  static let header =
    "client".padded(22) + "protocol".padded(10) + "body".padded(8) + "in flight".padded(11)
    + "requests".padded(10) + "req/s".padded(10) + "CPU µs/req".padded(12) + "failures"

  var line: String {
    client.rawValue.padded(22) + server.protocolName.padded(10)
      + "\(bodyBytes / 1_024) KB".padded(8) + "\(inFlight)".padded(11)
      + "\(result.requests)".padded(10)
      + String(format: "%.0f", result.requestsPerSecond).padded(10)
      + String(format: "%.0f", result.cpuMicrosecondsPerRequest).padded(12) + "\(result.failures)"
  }
}

/// The warm table with its ratios, then the new-connection table with what TLS adds to each.
func printTransportReport(_ rows: [TransportRow]) {
  let warm = rows.filter { !$0.server.isCold }
  print(TransportRow.header)
  for row in warm { print(row.line) }
  printRatios(warm, against: .rawURLSession)
  // The ceiling: how close each client comes to libcurl driven directly.
  printRatios(warm, against: .rawLibcurl)
  printProtocolRatios(warm)
  let cold = rows.filter(\.server.isCold)
  guard !cold.isEmpty else { return }
  print(
    "\nnew connection per request (nginx keepalive_requests 1; HTTPS: a full handshake each, "
      + "no session resumption), 1 at a time:")
  print(
    "client".padded(22) + "protocol".padded(10) + "requests".padded(10) + "µs/conn".padded(10)
      + "CPU µs/conn".padded(13) + "failures")
  for row in cold {
    print(
      row.client.rawValue.padded(22) + row.server.protocolName.padded(10)
        + "\(row.result.requests)".padded(10)
        + String(format: "%.0f", row.result.microsecondsPerRequest).padded(10)
        + String(format: "%.0f", row.result.cpuMicrosecondsPerRequest).padded(13)
        + "\(row.result.failures)")
  }
  print("\nwhat a new HTTPS h2 connection costs over a new HTTP/1.1 one (µs, client CPU µs):")
  for client in TransportClient.allCases {
    guard let plain = cold.first(where: { $0.client == client && !$0.server.isTLS }),
      let tls = cold.first(where: { $0.client == client && $0.server.isTLS })
    else { continue }
    let wall = tls.result.microsecondsPerRequest - plain.result.microsecondsPerRequest
    let cpu = tls.result.cpuMicrosecondsPerRequest - plain.result.cpuMicrosecondsPerRequest
    print("  \(client.rawValue): " + String(format: "+%.0f µs, +%.0f CPU µs", wall, cpu))
  }
}

private func printRatios(_ rows: [TransportRow], against baseline: TransportClient) {
  print("\nagainst \(baseline.rawValue) (throughput ×, CPU per request ×):")
  // HTTP/1.1 first, as the table has them.
  for name in ["HTTP/1.1", "HTTPS h2"] {
    for bodyBytes in Set(rows.map(\.bodyBytes)).sorted() {
      for inFlight in [1, 8] {
        let cell = rows.filter {
          $0.server.protocolName == name && $0.bodyBytes == bodyBytes && $0.inFlight == inFlight
        }
        guard let base = cell.first(where: { $0.client == baseline }) else { continue }
        for row in cell where row.client != baseline {
          let speed = row.result.requestsPerSecond / base.result.requestsPerSecond
          let cpu = row.result.cpuMicrosecondsPerRequest / base.result.cpuMicrosecondsPerRequest
          print(
            "  \(name), \(bodyBytes / 1_024) KB, \(inFlight) in flight, \(row.client.rawValue): "
              + String(format: "%.2f× throughput, %.3f× CPU", speed, cpu))
        }
      }
    }
  }
}

/// The same client over HTTPS h2 against itself over HTTP/1.1, warm connections.
private func printProtocolRatios(_ rows: [TransportRow]) {
  let tls = rows.filter(\.server.isTLS)
  guard !tls.isEmpty else { return }
  print("\nHTTPS h2 against HTTP/1.1, same client (throughput ×, CPU per request ×):")
  for row in tls {
    guard
      let plain = rows.first(where: {
        !$0.server.isTLS && $0.client == row.client && $0.bodyBytes == row.bodyBytes
          && $0.inFlight == row.inFlight
      })
    else { continue }
    let speed = row.result.requestsPerSecond / plain.result.requestsPerSecond
    let cpu = row.result.cpuMicrosecondsPerRequest / plain.result.cpuMicrosecondsPerRequest
    print(
      "  \(row.bodyBytes / 1_024) KB, \(row.inFlight) in flight, \(row.client.rawValue): "
        + String(format: "%.2f× throughput, %.3f× CPU", speed, cpu))
  }
}
