// swift-tools-version:6.0
import PackageDescription

// The peer benchmark lives in its own package so that Convoy itself keeps no dependencies:
// AsyncHTTPClient (and SwiftNIO under it) is built only when this package is.
// `swift run -c release --package-path Benchmarks peer-benchmark`
let package = Package(
  name: "ConvoyPeerBenchmarks",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "peer-benchmark", targets: ["PeerBenchmark"])
  ],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder (wt-peer, main, ...).
    .package(name: "Convoy", path: ".."),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    // Already in AHC's graph; named so that AHC can be told to trust the run's CA.
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
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
      ])
  ],
  swiftLanguageModes: [.v6]
)
