// swift-tools-version:6.0
import PackageDescription

// Convoy deliberately has no package dependencies: Foundation, FoundationNetworking on Linux,
// Dispatch and the toolchain's test libraries only.
let package = Package(
  name: "Convoy",
  // NSLock.withLock and the parameter-pack groups (GroupOperation.all) need these releases.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "Convoy", targets: ["Convoy"]),
    .library(name: "ConvoyTesting", targets: ["ConvoyTesting"]),
    .library(name: "ConvoyYAML", targets: ["ConvoyYAML"]),
    .executable(name: "democli", targets: ["DemoCLI"]),
    .executable(name: "convoy-openapi", targets: ["ConvoyOpenAPI"]),
    .plugin(name: "ConvoyOpenAPIPlugin", targets: ["ConvoyOpenAPIPlugin"]),
    .executable(name: "convoy-benchmarks", targets: ["ConvoyBenchmarks"]),
  ],
  targets: [
    .target(name: "Convoy"),
    .target(name: "ConvoyTesting", dependencies: ["Convoy"]),
    // A YAML parser for OpenAPI documents, on its own so that it can be tested as a library.
    .target(name: "ConvoyYAML"),
    // Reads OpenAPI documents and writes Convoy requests and models; used by convoy-openapi.
    .target(name: "ConvoyOpenAPIKit", dependencies: ["ConvoyYAML"]),
    .executableTarget(name: "ConvoyOpenAPI", dependencies: ["ConvoyOpenAPIKit"]),
    // Runs convoy-openapi on a target's openapi.yaml / openapi.json at build time.
    .plugin(
      name: "ConvoyOpenAPIPlugin", capability: .buildTool(), dependencies: ["ConvoyOpenAPI"]),
    .executableTarget(name: "DemoCLI", dependencies: ["Convoy", "ConvoyTesting"]),
    // Speed is measured here, in release builds, never in timed tests: `swift run -c release convoy-benchmarks`.
    .executableTarget(name: "ConvoyBenchmarks", dependencies: ["Convoy", "ConvoyTesting"]),
    .testTarget(name: "ConvoyTests", dependencies: ["Convoy", "ConvoyTesting"]),
    .testTarget(name: "ConvoyYAMLTests", dependencies: ["ConvoyYAML"]),
    // Convoy is a dependency so that its module exists for the compile checks of generated code.
    .testTarget(
      name: "ConvoyOpenAPIKitTests", dependencies: ["ConvoyOpenAPIKit", "ConvoyOpenAPI", "Convoy"]),
    // Clients generated from documents served live by FastAPI and Django REST framework apps
    // (scripts/openapi_*_app.py), built in a scratch package and run against those servers.
    .testTarget(name: "ConvoyOpenAPIIntegrationTests", dependencies: ["ConvoyOpenAPIKit"]),
    // Code generated from Tests/Fixtures/OpenAPI/articles.yaml, run against stubbed answers.
    .testTarget(name: "ConvoyOpenAPIGeneratedTests", dependencies: ["Convoy", "ConvoyTesting"]),
    .testTarget(name: "ConvoyIntegrationTests", dependencies: ["Convoy", "ConvoyTesting"]),
    // Runs the built democli binary as a process, the way people and scripts use it; it depends
    // on nothing, so it tests only what democli prints, writes and exits with.
    .testTarget(name: "DemoCLITests"),
  ],
  swiftLanguageModes: [.v6]
)
