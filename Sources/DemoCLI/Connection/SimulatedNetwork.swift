import Convoy
import ConvoyTesting
import Foundation

/// The network as `--offline` simulates it: a connectivity monitor that says offline until
/// ``comeBack()``, and a transport that fails every call meanwhile, as a device without a
/// network does.
struct SimulatedNetwork: Sendable {
  let connectivity: SimulatedConnectivity

  init(offline: Bool) {
    connectivity = SimulatedConnectivity(offline ? .offline : .online)
  }

  /// The network returns.
  func comeBack() { connectivity.goOnline() }

  /// `transport`, failing every call while the network is down.
  func gate(_ transport: any HTTPTransport) -> any HTTPTransport {
    OfflineGate(wrapped: transport, connectivity: connectivity)
  }

  private struct OfflineGate: HTTPTransport {
    let wrapped: any HTTPTransport
    let connectivity: SimulatedConnectivity

    func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportAnswer {
      guard connectivity.connectivity != .offline else {
        throw TransportFailure(kind: .notConnectedToInternet, detail: "simulated: offline")
      }
      return try await wrapped.send(request)
    }
  }
}
