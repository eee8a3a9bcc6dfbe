import Convoy
import Foundation

// `peer-benchmark [throughput|memory|all]` (default `all`): Convoy beside raw URLSession and
// AsyncHTTPClient, against one local nginx, over plain HTTP on loopback. `memory-case` is the
// child process of `memory`.
//
// HTTPS + HTTP/2 is not measured yet: `CurlTransport` always verifies against the system CA
// store and has no setting for a CA of the benchmark's own, and a certificate installed
// system-wide would outlive the run on a shared machine.

let arguments = Array(CommandLine.arguments.dropFirst())
let requested = arguments.first ?? "all"
if requested == "memory-case" {
  runMemoryCase(Array(arguments.dropFirst()))
  exit(0)
}
guard ["throughput", "memory", "all"].contains(requested) else {
  FileHandle.standardError.write(Data("usage: peer-benchmark [throughput|memory|all]\n".utf8))
  exit(64)
}
guard let binary = LocalNginx.binary() else {
  print(
    "peer-benchmark: SKIPPED, nginx is not installed (looked in "
      + "\(LocalNginx.candidates.joined(separator: ", "))). `apt-get install nginx-light`.")
  exit(0)
}
let nginx: LocalNginx
do {
  nginx = try LocalNginx.start(binary: binary)
} catch {
  print("peer-benchmark: SKIPPED, \(error)")
  exit(1)
}
#if os(Linux)
  let curl = CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
#else
  let curl = "no curl transport on this platform"
#endif
print(
  "peer-benchmark: \(nginx.version) on 127.0.0.1:\(nginx.port), HTTP/1.1, \(curl), "
    + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs")
if requested != "memory" { runThroughputBenchmark(nginx: nginx) }
if requested != "throughput" { runMemoryBenchmark(nginx: nginx) }
nginx.stop()
