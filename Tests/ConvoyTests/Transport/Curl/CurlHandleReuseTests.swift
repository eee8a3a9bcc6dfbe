#if os(Linux)
  import ConvoyTesting
  import Foundation
  import FoundationNetworking
  import Testing

  @testable import Convoy

  /// A transport keeps its easy handles between transfers, and resets one only after a transfer
  /// that set more than every transfer sets (see `EasyHandlePool`). One transfer at a time takes
  /// the handle the last one gave back, so each call below runs on the handle of the call before.
  @Suite struct CurlHandleReuseTests {
    private func send(
      _ method: String, _ path: String, body: Data? = nil, on transport: CurlTransport,
      server: MockServer
    ) async throws -> TransportResponse {
      var request = URLRequest(url: server.url(for: path))
      request.httpMethod = method
      request.httpBody = body
      let result = await withCheckedContinuation { continuation in
        _ = transport.startTransfer(TransportRequest(urlRequest: request)) {
          continuation.resume(returning: $0)
        }
      }
      return try result.get()
    }

    @Test func aCallCarriesNothingOfTheMethodOrBodyOfTheCallBefore() async throws {
      let server = try await MockServer.started()
      server.route("/answer", answer: .text("the answer"))
      let transport = try CurlTransport()
      let steps: [(method: String, body: Data?)] = [
        ("POST", Data("first body".utf8)), ("GET", nil), ("HEAD", nil), ("GET", nil),
        ("PUT", Data("second body".utf8)), ("GET", nil), ("DELETE", nil), ("GET", nil),
        ("POST", Data()), ("GET", nil),
      ]
      for step in steps {
        let response = try await send(
          step.method, "/answer", body: step.body, on: transport, server: server)
        let recorded = try await server.takeRequest()
        #expect(recorded.method == step.method)
        #expect(recorded.body == (step.body ?? Data()), "\(step.method)")
        if step.method == "GET" {
          #expect(recorded.headers["Content-Length"] == nil)
          #expect(recorded.headers["Content-Type"] == nil)
          #expect(String(decoding: response.data, as: UTF8.self) == "the answer")
        }
      }
      await server.shutdown()
    }

    @Test func aCallAfterAFailedOneOnTheSameHandleSucceeds() async throws {
      let server = try await MockServer.started()
      server.enqueue(.text("cut short").with(fault: .hangUpAfterBodyBytes(3)))
      server.enqueue(.text("whole"))
      let transport = try CurlTransport()
      await #expect(throws: TransportFailure.self) {
        _ = try await send("GET", "/first", on: transport, server: server)
      }
      let response = try await send("GET", "/second", on: transport, server: server)
      #expect(String(decoding: response.data, as: UTF8.self) == "whole")
      await server.shutdown()
    }
  }
#endif
