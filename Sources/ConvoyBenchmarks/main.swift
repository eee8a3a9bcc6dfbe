import Foundation

// `convoy-benchmarks [orchestration|calls|transports|downloads|uploads|memory|sse|mock|all]`:
// each suite prints its own table. `all` runs the request suites only: the transfer suites move
// gigabytes.
let suites: [String: () -> Void] = [
  "orchestration": runOrchestrationBenchmark,
  "calls": runCallCostBenchmark,
  "transports": runTransportBenchmark,
  "downloads": runDownloadBenchmark,
  "uploads": runUploadBenchmark,
  "memory": runMemoryBenchmark,
  "sse": runEventStreamBenchmark,
  "mock": runMockServerBenchmark,
]
let suitesInAll = ["orchestration", "transports"]

let arguments = Array(CommandLine.arguments.dropFirst())
let requested = arguments.first ?? "all"
if requested == "all" {
  for name in suitesInAll { suites[name]!() }
} else if requested == "memory-case" {
  // A child of `memory`: one case in a fresh process, since peak RSS is per process.
  runMemoryCase(Array(arguments.dropFirst()))
} else if let suite = suites[requested] {
  suite()
} else {
  FileHandle.standardError.write(
    Data("usage: convoy-benchmarks [\(suites.keys.sorted().joined(separator: "|"))|all]\n".utf8))
  exit(64)
}
