import Convoy
import ConvoyTesting
import Foundation

// A first, small democli: `places` and `environments` against a built-in simulated Places API.
// The full command set (login, logout, scenarios, persisted sessions) comes with its own issue.

struct Place: Codable, Sendable {
  var id: Int
  var name: String
}

struct PlacesRequest: RequestDescribing {
  typealias Response = JSONResponse<[Place]>
  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
}

let environments: [ServerEnvironment: URL] = [
  .local: URL(string: "http://127.0.0.1:8080/")!,
  .staging: URL(string: "https://staging.places.example/api/")!,
  .production: URL(string: "https://places.example/api/")!,
]

func fail(_ text: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data((text + "\n").utf8))
  exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
var environment = ServerEnvironment.staging
var simulate = false
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  switch argument {
  case "--simulate": simulate = true
  case "--env":
    guard !arguments.isEmpty else { fail("--env needs a value", code: 64) }
    environment = ServerEnvironment(rawValue: arguments.removeFirst())
  default: fail("unknown option \(argument)", code: 64)
  }
}

switch command {
case "environments":
  for (name, url) in environments.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    print("\(name)\t\(url.absoluteString)")
  }
case "places":
  guard let baseURL = environments[environment] else {
    fail("unknown environment \(environment)", code: 64)
  }
  let transport: (any HTTPTransport)? =
    simulate
    ? StubTransport { _ in .json([["id": 1, "name": "Harbour"], ["id": 2, "name": "Old Bridge"]]) }
    : nil
  let connection = ServerConnection(
    configuration: ServerConfiguration(environment: environment, baseURL: baseURL, timeout: 15),
    transport: transport)
  do {
    let places = try await connection.execute(PlacesRequest()).value
    for place in places { print("\(place.id)\t\(place.name)") }
  } catch {
    let message = ErrorMessageProvider.standard.message(for: error)
    fail(message?.text ?? "Cancelled.", code: 1)
  }
default:
  print(
    """
    usage: democli places [--env local|staging|production] [--simulate]
           democli environments
    """)
}
