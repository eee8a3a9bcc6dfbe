import ConvoyTesting
import Foundation

@testable import Convoy

/// A GET whose wish to wait for the network the tests set.
struct WaitingRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod = .get
  var path: String { "sync" }
  var waitsForConnectivity: Bool? = nil
  var retryPolicy: RetryPolicy? = nil
}

/// A connection over `transport` on `network` and `clock`, whose events land in `events`.
func connection(
  _ transport: StubTransport, network: SimulatedConnectivity, clock: TestClock,
  waits: Bool = true, timeout: TimeInterval = 30,
  retryPolicy: RetryPolicy = RetryPolicy(maximumRetries: 2, baseDelay: 10, jitter: 0),
  events: Locked<[ConvoyEvent]> = Locked([])
) -> ServerConnection {
  var configuration = ServerConfiguration(
    environment: .staging, baseURL: URL(string: "https://api.example.com/")!, timeout: timeout,
    retryPolicy: retryPolicy, clock: clock)
  configuration.waitsForConnectivity = waits
  transport.clock = clock
  return ServerConnection(
    configuration: configuration, transport: transport,
    observers: [AnyEventObserver { event in events.withLock { $0.append(event) } }],
    connectivityMonitor: network)
}

extension Locked<[ConvoyEvent]> {
  /// Waits, with the tests' bound, until an event named `name` arrived.
  func arrival(of name: ConvoyEvent.Name) async -> Bool {
    await eventually { withLock { $0.contains { $0.name == name } } }
  }
}

/// A failure that shows the request never left the client.
let refused = StubAnswer.failure(
  TransportFailure(kind: .cannotConnectToHost, detail: "curl 7: Couldn't connect"))
