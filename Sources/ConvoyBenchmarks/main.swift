import Foundation

// `convoy-benchmarks [orchestration|transports|all]`: each suite prints its own table.
let suites: [String: () -> Void] = [
  "orchestration": runOrchestrationBenchmark,
  "transports": runTransportBenchmark,
]

let requested = CommandLine.arguments.dropFirst().first ?? "all"
if requested == "all" {
  for name in suites.keys.sorted() { suites[name]!() }
} else if let suite = suites[requested] {
  suite()
} else {
  FileHandle.standardError.write(
    Data("usage: convoy-benchmarks [\(suites.keys.sorted().joined(separator: "|"))|all]\n".utf8))
  exit(64)
}
