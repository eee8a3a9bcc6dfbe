import Foundation
import NIOCore

/// A benchmark that could not run, with the reason.
struct EchoBenchmarkError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

/// The WebSocket clients the benchmark compares, each used the way its README shows.
enum EchoClientKind: String, CaseIterable, Sendable {
  /// Convoy: `ServerConnection.webSocket` on `CurlTransport`, `send` awaited, `messages` read
  /// with `for try await` (one task does both, preferring the WebSocket's `executor`).
  case convoy = "Convoy on curl"
  /// Vapor's websocket-kit on SwiftNIO: `WebSocket.connect(to:on:)` on the singleton event loop
  /// group, an `onBinary` callback that sends the next message from the event loop. It has no
  /// permessage-deflate.
  case websocketKit = "websocket-kit"
  /// Hummingbird's client (swift-websocket's `WSClient`) on SwiftNIO: the connection lives in its
  /// handler closure, which reads `inbound.messages` and writes `outbound`; it has
  /// permessage-deflate, so it is the one peer of Convoy's compressed cells.
  case wsClient = "WSClient"

  /// The name used on the command line (`memory-case`, `WS_BENCH_CLIENTS`).
  var argument: String {
    switch self {
    case .convoy: "convoy"
    case .websocketKit: "websocket-kit"
    case .wsClient: "wsclient"
    }
  }

  init?(argument: String) {
    guard let kind = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
    self = kind
  }

  /// Whether the client can offer permessage-deflate.
  var canCompress: Bool { self != .websocketKit }

  /// What opens this kind's WebSockets to the echo server on `port`: one per process, as an
  /// application keeps one connection (Convoy) or event loop group (NIO) for all its sockets.
  func makeConnector(port: Int) throws -> any EchoConnector {
    switch self {
    case .convoy: try ConvoyConnector(port: port)
    case .websocketKit: WebSocketKitConnector(port: port)
    case .wsClient: WSClientConnector(port: port)
    }
  }
}

/// Opens WebSockets to the echo server's `/echo`.
protocol EchoConnector: Sendable {
  func connect(compression: Bool) async throws -> any EchoClient
}

/// One open WebSocket to the echo server.
protocol EchoClient: Sendable {
  /// Sends `payload` as binary messages, keeping `window` of them in flight (the next is sent
  /// when an echo comes back) until `deadline`, then waits for the echoes still on their way.
  func exchange(_ payload: Payload, window: Int, until deadline: ContinuousClock.Instant)
    async throws -> Exchange
  /// Starts the close handshake and waits for it.
  func close() async
}

/// What one ``EchoClient/exchange(_:window:until:)`` counted.
struct Exchange: Sendable {
  /// Echoes received.
  var messages = 0
  /// Echoes whose size was not the payload's.
  var mismatched = 0
}

/// A message's bytes, made once, in the form each client sends.
struct Payload: Sendable {
  let data: Data
  let buffer: ByteBuffer

  var count: Int { data.count }

  /// JSON of small records, as an API's messages are: it compresses (3.5× at 1 KB, 6× at 64 KB), so that the
  /// compressed cells measure deflate doing something. The same bytes for every run.
  init(bytes: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    var text = "["
    var id = 0
    while text.utf8.count < bytes {
      id += 1
      let price = next() % 100_000
      text +=
        "{\"id\":\(id),\"name\":\"item-\(next() % 10_000)\",\"price\":\(price / 100).\(price % 100),"
        + "\"inStock\":\(next() % 2 == 0),\"tags\":[\"t\(next() % 50)\",\"t\(next() % 50)\"]},"
    }
    data = Data(text.utf8.prefix(bytes))
    buffer = ByteBuffer(bytes: data)
  }
}
