import BenchmarkSupport
import Foundation
import Hummingbird
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging

/// Which echo server the clients talk to (`WS_BENCH_SERVER`).
enum EchoServerKind: String, CaseIterable, Sendable {
  /// SwiftNIO's WebSocket upgrader and a handler that writes each frame back as it came (the
  /// default): see ``runFrameEchoServer()``.
  case nio
  /// Hummingbird's WebSocket upgrade (hummingbird-websocket), each message read from
  /// `inbound.messages` and written back, permessage-deflate by swift-websocket (the server
  /// inflates and deflates every message): see ``runEchoServer()``.
  case hummingbird

  var description: String {
    switch self {
    case .nio: "SwiftNIO frame echo"
    case .hummingbird: "Hummingbird message echo"
    }
  }
}

/// The echo server every client talks to, in a child process of its own
/// (`websocket-benchmark server <kind>`), so that the benchmark's `getrusage` counts the clients
/// alone and the server's CPU time can be read apart (`/proc/PID/stat`).
struct EchoServer {
  let kind: EchoServerKind
  let process: Process
  let port: Int

  var processIdentifier: Int32 { process.processIdentifier }

  /// The server's user + system CPU time so far, in seconds.
  var cpuTime: Double { processCPUTime(of: process.processIdentifier) ?? 0 }

  /// Starts the child and waits for the port it bound (it prints `port=N` once listening).
  static func start(_ kind: EchoServerKind) throws -> EchoServer {
    let process = Process()
    process.executableURL = Bundle.main.executableURL
    process.arguments = ["server", kind.rawValue]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var text = ""
    while !text.contains("\n") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      text += String(decoding: data, as: UTF8.self)
    }
    let line = text.split(separator: "\n").first.map(String.init) ?? ""
    guard line.hasPrefix("port="), let port = Int(line.dropFirst(5)) else {
      process.terminate()
      throw EchoBenchmarkError("the echo server did not start (said: \(line))")
    }
    return EchoServer(kind: kind, process: process, port: port)
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// The Hummingbird child: serves `ws://127.0.0.1:PORT/echo` on a free port until it is
/// terminated, permessage-deflate offered to the clients that ask for it.
func runEchoServer() async {
  var logger = Logger(label: "echo-server")
  logger.logLevel = .error
  let largest = 1 << 24
  let application = Application(
    router: Router(),
    server: .http1WebSocketUpgrade(
      configuration: HTTP1WebSocketUpgradeChannel.Configuration(
        ws: WebSocketServerConfiguration(
          maxFrameSize: largest,
          extensions: [.perMessageDeflate(maxDecompressedFrameSize: largest)],
          // The clients ping (or not) as they do by default; the server does not.
          autoPing: .disabled))
    ) { _, _, _ in
      .upgrade([:]) { inbound, outbound, _ in
        for try await message in inbound.messages(maxSize: largest) {
          switch message {
          case .binary(let buffer): try await outbound.write(.binary(buffer))
          case .text(let string): try await outbound.write(.text(string))
          }
        }
      }
    },
    configuration: ApplicationConfiguration(
      address: .hostname("127.0.0.1", port: 0), serverName: "echo", backlog: 1_024),
    onServerRunning: { channel in
      FileHandle.standardOutput.write(Data("port=\(channel.localAddress?.port ?? 0)\n".utf8))
    },
    logger: logger)
  do {
    try await application.runService()
  } catch {
    FileHandle.standardError.write(Data("echo server: \(error)\n".utf8))
    exit(1)
  }
}
