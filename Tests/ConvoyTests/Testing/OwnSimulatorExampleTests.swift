import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The "Writing your own simulator" example of Docs/Testing.md, verbatim, so the documented
// pattern keeps compiling and working.

enum ShopScenario: String, CaseIterable, Sendable { case happy, offline, slow }

final class SimulatedShop: HTTPTransport {
  let routes = StubRoutes()
  private let transport: StubTransport

  init(scenario: ShopScenario = .happy) {
    transport = StubTransport(routes: routes)
    // Capture values, not the simulator, so the table keeps working on its own.
    let routes = self.routes
    func route(
      _ method: HTTPMethod, _ path: String,
      _ endpoint: @escaping @Sendable (StubRequest) -> StubAnswer
    ) {
      routes.on(method, path) { request in
        switch scenario {
        case .offline: .failure(TransportFailure(kind: .notConnectedToInternet, detail: "offline"))
        case .slow: .delayed(1.5, endpoint(request))
        case .happy: endpoint(request)
        }
      }
    }
    route(.get, "v1/products") { _ in .json([["id": 1, "name": "Kettle"]]) }
    route(.get, "v1/products/{id}") { request in
      request.pathParameters["id"] == "1"
        ? .json(["id": 1, "name": "Kettle"])
        : .json(["error": true, "reason": "No such product."], status: 404)
    }
  }

  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    transport.startTransfer(request, completion: completion)
  }
}

private struct Product: Decodable, Sendable, Equatable {
  var id: Int
  var name: String
}

@Suite struct OwnSimulatorExampleTests {
  @Test func theDocumentedSimulatorAnswersAndMisbehavesAsItsScenarioSays() async throws {
    let happy = stubConnection(SimulatedShop())
    let products = try await happy.execute(StubCall<[Product]>(path: "v1/products")).value
    #expect(products == [Product(id: 1, name: "Kettle")])
    let missing = await #expect(throws: ServerConnectionError.self) {
      _ = try await happy.execute(StubCall<Product>(path: "v1/products/2"))
    }
    #expect(missing?.statusCode == 404)

    let offline = stubConnection(SimulatedShop(scenario: .offline))
    let error = await #expect(throws: ServerConnectionError.self) {
      _ = try await offline.execute(StubCall<[Product]>(path: "v1/products"))
    }
    #expect(transportFailure(in: error)?.kind == .notConnectedToInternet)
  }
}
