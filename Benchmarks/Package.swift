// swift-tools-version:6.1
import PackageDescription

// The peer benchmarks live in their own package so that Convoy itself keeps no dependencies:
// AsyncHTTPClient, websocket-kit, Hummingbird (and SwiftNIO under them) are built only when this
// package is.
// `swift run -c release --package-path Benchmarks peer-benchmark`
// `swift run -c release --package-path Benchmarks websocket-benchmark`
// `swift run -c release --package-path Benchmarks durable-queue-benchmark`
let package = Package(
  name: "ConvoyPeerBenchmarks",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "peer-benchmark", targets: ["PeerBenchmark"]),
    .executable(name: "websocket-benchmark", targets: ["WebSocketBenchmark"]),
    .executable(name: "durable-queue-benchmark", targets: ["DurableQueueBenchmark"]),
  ],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder (wt-peer, main, ...).
    .package(name: "Convoy", path: ".."),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Already in AHC's graph; named so that AHC can be told to trust the run's CA.
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    // The WebSocket client a Linux user would pick beside Convoy.
    .package(url: "https://github.com/vapor/websocket-kit.git", from: "2.16.0"),
    // The WebSocket benchmark's second echo server (`WS_BENCH_SERVER=hummingbird`), and
    // Hummingbird's client (WSClient), the one with permessage-deflate. No traits: neither needs
    // swift-configuration or full Foundation.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.24.0", traits: []),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
  ],
  targets: [
    // What the benchmarks measure with: getrusage, VmHWM, the load average, medians.
    .target(name: "BenchmarkSupport"),
    .executableTarget(
      name: "PeerBenchmark",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]),
    .executableTarget(
      name: "WebSocketBenchmark",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "WebSocketKit", package: "websocket-kit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
      ]),
    // SQLite is the system's libsqlite3.so.0, loaded at run time (SQLiteLibrary.swift says why):
    // no module map, no dependency.
    .executableTarget(
      name: "DurableQueueBenchmark",
      dependencies: ["BenchmarkSupport", .product(name: "Convoy", package: "Convoy")]),
  ],
  swiftLanguageModes: [.v6]
)
