import Convoy
import ConvoyTesting
import Foundation

/// `convoy-benchmarks mock [count]`: the round trip of a call to a `MockServer` route with no
/// scripted delay, 1 KB answers, one call after another and 8 in flight, on each transport, with
/// the same calls to a local nginx in the same run as the yardstick. An app's mock-backed test
/// suite pays this per call, so it should stay near what a real server costs.
func runMockServerBenchmark() {
  let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 1_000
  let body = Data(repeating: UInt8(ascii: "x"), count: 1_024)
  var nginx: LocalNginx?
  defer { nginx?.stop() }
  if let binary = LocalNginx.binary() {
    nginx = try? LocalNginx.start(binary: binary, extraFiles: ["ping": body])
  }
  let server = MockServer()
  blockOn { try? await server.start() }
  defer { blockOn { await server.shutdown() } }
  server.route(.get, "/ping", answer: .data(body))

  var transports: [(String, @Sendable () throws -> any HTTPTransport)] = [
    ("URLSession", { URLSessionTransport() })
  ]
  #if os(Linux)
    transports.append(("curl", { try CurlTransport() }))
  #endif
  print("mock: \(count) calls per cell, wall time per call (1 KB answers)")
  print("  transport   in flight   MockServer    nginx     mock / nginx")
  for (name, makeTransport) in transports {
    for inFlight in [1, 8] {
      guard let mock = try? roundTrip(to: server.port, makeTransport, count, inFlight) else {
        print("  \(name): SKIPPED")
        continue
      }
      let yardstick = nginx.flatMap { try? roundTrip(to: $0.port, makeTransport, count, inFlight) }
      let nginxCell = yardstick.map { String(format: "%7.3f ms", $0 * 1e3) } ?? "      n/a"
      let ratio = yardstick.map { String(format: "%6.2f×", mock / $0) } ?? "   n/a"
      print(
        "  " + name.padding(toLength: 11, withPad: " ", startingAt: 0)
          + String(format: " %9d   %7.3f ms   ", inFlight, mock * 1e3) + nginxCell + "   "
          + ratio)
    }
  }
}

/// Seconds of wall time per call: `count` calls of `/ping`, `inFlight` at a time.
private func roundTrip(
  to port: Int, _ makeTransport: () throws -> any HTTPTransport, _ count: Int, _ inFlight: Int
) throws -> Double {
  let connection = ServerConnection(
    configuration: .local(port: port), transport: try makeTransport(),
    networkConcurrencyLimit: inFlight)
  let calls = { @Sendable (total: Int) async in
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<inFlight {
        group.addTask {
          for _ in 0..<(total / inFlight) {
            let answer = try? await connection.execute(MockPing())
            precondition(answer?.data.count == 1_024, "a benchmark call failed")
          }
        }
      }
    }
  }
  blockOn { await calls(min(count, 8 * inFlight)) }  // warm up: connections, lazy globals
  let start = DispatchTime.now().uptimeNanoseconds
  blockOn { await calls(count) }
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(count)
}

private struct MockPing: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "ping" }
}
