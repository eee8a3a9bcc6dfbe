// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for Convoy's parsers (issue #27). A package of its own, so that Convoy keeps
// no dependencies and its `.build` is never touched: `scripts/fuzz` builds this one into
// `.build-fuzz`, in debug, with `--sanitize=fuzzer --sanitize=address`. Each target is one
// executable whose `LLVMFuzzerTestOneInput` libFuzzer calls (libFuzzer brings `main`); internal
// parsers are reached by `@testable import`, which debug builds allow. Seeds are in
// `Corpus/<target>`.
let convoy = Target.Dependency.product(name: "Convoy", package: "Convoy")
let yaml = Target.Dependency.product(name: "ConvoyYAML", package: "Convoy")

let targets: [(name: String, dependencies: [Target.Dependency])] = [
  ("FuzzResponseHead", [convoy]),
  ("FuzzSetCookie", [convoy]),
  ("FuzzCacheHeaders", [convoy]),
  ("FuzzLinkHeader", [convoy]),
  ("FuzzRetryAfter", [convoy]),
  ("FuzzOAuthBodies", [convoy]),
  ("FuzzServerSentEvents", [convoy]),
  ("FuzzLines", [convoy]),
  ("FuzzMultipart", [convoy]),
  ("FuzzContentRange", [convoy]),
  ("FuzzWebSocketFrames", [convoy]),
  ("FuzzWebSocketExtensions", [convoy]),
  ("FuzzYAML", [yaml]),
  ("FuzzOpenAPI", ["OpenAPIKit"]),
]

let package = Package(
  name: "ConvoyFuzz",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "Convoy", path: "..")],
  targets: targets.map { .executableTarget(name: $0.name, dependencies: $0.dependencies) } + [
    // ConvoyOpenAPIKit is no product of Convoy's (only the generator and its plugin are), so
    // its sources are compiled here again, through a symbolic link, as a module of this package.
    .target(name: "OpenAPIKit", dependencies: [yaml])
  ],
  swiftLanguageModes: [.v6]
)
