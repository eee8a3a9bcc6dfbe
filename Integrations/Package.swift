// swift-tools-version:6.0
import PackageDescription

// Convoy's bridges to server-side Swift libraries live in their own package so that Convoy itself
// keeps no dependencies: swift-log, swift-metrics, swift-distributed-tracing and postgres-nio are
// built only when this package is.
// `swift test --package-path Integrations`
let package = Package(
  name: "ConvoyIntegrations",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "ConvoyLogging", targets: ["ConvoyLogging"]),
    .library(name: "ConvoyMetrics", targets: ["ConvoyMetrics"]),
    .library(name: "ConvoyTracing", targets: ["ConvoyTracing"]),
    .library(name: "ConvoyPostgres", targets: ["ConvoyPostgres"]),
    // Not for apps: the process the PostgreSQL store's tests start twice and kill one of.
    .executable(name: "convoy-queue-worker", targets: ["ConvoyQueueWorker"]),
  ],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder (wt-observability, ...).
    .package(name: "Convoy", path: ".."),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
  ],
  targets: [
    .target(
      name: "ConvoyLogging",
      dependencies: [
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .target(
      name: "ConvoyMetrics",
      dependencies: [
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "Metrics", package: "swift-metrics"),
      ]),
    .target(
      name: "ConvoyTracing",
      dependencies: [
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ]),
    .target(
      name: "ConvoyPostgres",
      dependencies: [
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "ConvoyQueueWorker",
      dependencies: [
        "ConvoyPostgres",
        .product(name: "Convoy", package: "Convoy"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
    .testTarget(
      name: "ConvoyIntegrationsTests",
      dependencies: [
        "ConvoyLogging", "ConvoyMetrics", "ConvoyTracing", "ConvoyPostgres",
        .product(name: "ConvoyTesting", package: "Convoy"),
        .product(name: "InMemoryLogging", package: "swift-log"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
