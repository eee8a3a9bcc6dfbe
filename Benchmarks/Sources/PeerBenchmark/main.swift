import BenchmarkSupport
import Convoy
import Foundation

// `peer-benchmark [throughput|memory|all]` (default `all`): Convoy beside raw URLSession and
// AsyncHTTPClient, against one local nginx on loopback: plain HTTP/1.1, and HTTPS with HTTP/2 on
// a certificate made for the run by the `openssl` command (in a temporary folder, or kept in
// `PEER_BENCH_TLS_DIR`), trusted by AHC and Convoy on curl alone. `memory-case` is the child
// process of `memory`, plain HTTP only.

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
let keptFolder = ProcessInfo.processInfo.environment["PEER_BENCH_TLS_DIR"].map {
  URL(fileURLWithPath: $0)
}
let certificateFolder =
  keptFolder
  ?? FileManager.default.temporaryDirectory.appendingPathComponent("convoy-tls-\(UUID())")
var certificates: BenchmarkCertificates?
if requested != "memory" {
  do {
    certificates = try BenchmarkCertificates.make(in: certificateFolder)
  } catch {
    print("peer-benchmark: HTTPS cells SKIPPED, \(error)")
  }
}
let nginx: LocalNginx
do {
  nginx = try LocalNginx.start(binary: binary, certificates: certificates)
} catch {
  print("peer-benchmark: SKIPPED, \(error)")
  exit(1)
}
#if os(Linux)
  let curl = CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
#else
  let curl = "no curl transport on this platform"
#endif
let tlsPort = nginx.tlsPort.map { ", HTTPS h2 on :\($0)" } ?? ""
print(
  "peer-benchmark: \(nginx.version) on 127.0.0.1:\(nginx.port) HTTP/1.1\(tlsPort), \(curl), "
    + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs")
if requested != "memory" {
  runThroughputBenchmark(nginx: nginx, authorityFile: certificates?.authorityFile)
}
if requested != "throughput" { runMemoryBenchmark(nginx: nginx) }
nginx.stop()
if keptFolder == nil { try? FileManager.default.removeItem(at: certificateFolder) }
