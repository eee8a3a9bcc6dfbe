import BenchmarkSupport
import Foundation

#if os(Linux)
  import Convoy
#endif

// `websocket-benchmark [echo|memory|all]` (default `all`): Convoy beside websocket-kit and
// Hummingbird's WSClient, against one echo server on loopback in a child process
// (`websocket-benchmark server nio|hummingbird`, `WS_BENCH_SERVER`, default `nio`).
// `memory-case` is the child process of `memory`.

let arguments = Array(CommandLine.arguments.dropFirst())
let requested = arguments.first ?? "all"
switch requested {
case "server":
  raiseOpenFileLimit()
  switch EchoServerKind(rawValue: arguments.dropFirst().first ?? "") {
  case .nio: runFrameEchoServer()
  case .hummingbird: runBlocking { await runEchoServer() }
  case nil: print("usage: websocket-benchmark server nio|hummingbird")
  }
  exit(0)
case "memory-case":
  runBlocking { await runIdleSocketsCase(Array(arguments.dropFirst())) }
  exit(0)
case "echo", "memory", "all":
  break
default:
  FileHandle.standardError.write(Data("usage: websocket-benchmark [echo|memory|all]\n".utf8))
  exit(64)
}
raiseOpenFileLimit()
let serverName = ProcessInfo.processInfo.environment["WS_BENCH_SERVER"] ?? "nio"
guard let serverKind = EchoServerKind(rawValue: serverName) else {
  print("websocket-benchmark: WS_BENCH_SERVER is nio or hummingbird, not \(serverName)")
  exit(64)
}
let server: EchoServer
do {
  server = try EchoServer.start(serverKind)
} catch {
  print("websocket-benchmark: SKIPPED, \(error)")
  exit(1)
}
#if os(Linux)
  let curl = CurlTransport.libcurlVersion.map { "libcurl \($0)" } ?? "libcurl unavailable"
#else
  let curl = "no curl transport on this platform"
#endif
print(
  "websocket-benchmark: \(serverKind.description) server (pid \(server.processIdentifier)) on "
    + "127.0.0.1:\(server.port), \(curl), \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
var failed = false
if requested != "memory" {
  do {
    try runEchoBenchmark(server: server)
  } catch {
    print("echo: FAILED, \(error)")
    failed = true
  }
}
if requested != "echo" { runIdleSocketsBenchmark(server: server) }
server.stop()
exit(failed ? 1 : 0)
