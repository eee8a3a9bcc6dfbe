import Foundation
import Testing

/// A server that no one here wrote, which some suites test Convoy against.
///
/// `scripts/test` installs them all (PyPI packages into `.venv`, nginx from Debian) and sets
/// `CONVOY_REQUIRE_PEERS=1`, so in CI a missing peer fails its suites loudly. A plain
/// `swift test` on a machine with only the toolchain skips those suites instead, saying which
/// peer is missing and how to install it.
enum Peer: String, CaseIterable, Sendable {
  case httpbin
  case sseStarlette = "sse-starlette"
  case djangoOAuthToolkit = "django-oauth-toolkit"
  case hypercorn = "hypercorn with trustme"
  case proxyPy = "proxy.py"
  case websockets
  case tuspyserver
  case fastapi = "FastAPI on uvicorn"
  case nginx

  /// Whether the peer can be started here (always `true` when peers are required, so that a
  /// missing one fails rather than skips).
  var isAvailable: Bool {
    Peer.required || Peer.installed.contains(self)
  }

  /// Whether `scripts/test` asked for every peer to be there.
  static let required = ProcessInfo.processInfo.environment["CONVOY_REQUIRE_PEERS"] == "1"

  /// The peers found on this machine, looked for once per test process.
  private static let installed: Set<Peer> = Set(allCases.filter(\.isInstalled))

  /// The Python modules a peer's script imports (nil for nginx, a program).
  private var modules: [String]? {
    switch self {
    case .httpbin: ["httpbin", "werkzeug"]
    case .sseStarlette: ["sse_starlette", "uvicorn"]
    case .djangoOAuthToolkit: ["oauth2_provider", "django", "werkzeug"]
    case .hypercorn: ["hypercorn", "trustme", "httpbin"]
    case .proxyPy: ["proxy"]
    case .websockets: ["websockets", "trustme"]
    case .tuspyserver: ["tuspyserver", "fastapi", "uvicorn"]
    case .fastapi: ["fastapi", "uvicorn"]
    case .nginx: nil
    }
  }

  private var isInstalled: Bool {
    guard let modules else {
      return ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].contains {
        FileManager.default.isExecutableFile(atPath: $0)
      }
    }
    guard let python = LoopbackServerProcess.python else { return false }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", "import " + modules.joined(separator: ", ")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the suite only where `peers` can be started, and otherwise says which are missing.
  static func needs(_ peers: Peer...) -> Self {
    let missing = peers.filter { !$0.isAvailable }.map(\.rawValue)
    return .enabled(
      if: missing.isEmpty,
      "needs \(missing.joined(separator: ", ")), not installed here: scripts/test installs it")
  }
}
