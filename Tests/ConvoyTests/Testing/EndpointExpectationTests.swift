import Convoy
import ConvoyExpectations
import ConvoyTesting
import Foundation
import Testing

/// The one-line endpoint expectations: they pass quietly when the endpoint does what is expected,
/// and otherwise record one issue that says what was sent and what came back.
@Suite struct EndpointExpectationTests {
  struct Place: Codable, Sendable, Equatable {
    var id: Int
    var name: String
  }

  struct PlaceRequest: RequestDescribing {
    typealias Response = JSONResponse<Place>
    var id: Int
    var method: HTTPMethod { .get }
    var path: String { "places/\(id)" }
  }

  private let harbour = Place(id: 7, name: "Harbour")

  @Test func aMockServedEndpointMeetsItsExpectations() async throws {
    let server = try await MockServer.started()
    server.route(.get, "/places/7", answer: .json(harbour))
    let response = await expect(PlaceRequest(id: 7), on: server, succeedsWith: harbour)
    #expect(response?.response.statusCode == 200)
    await expect(PlaceRequest(id: 8), on: server, failsWith: .notFound)
    await server.shutdown()
  }

  @Test func aStubbedEndpointMeetsItsExpectations() async {
    let stub = StubTransport(
      routes: StubRoutes()
        .on(.get, "/places/7", answer: .encoded(harbour))
        .on(.get, "/places/9", answer: .status(500)))
    await expect(PlaceRequest(id: 7), on: stub, succeedsWith: harbour)
    await expect(PlaceRequest(id: 9), on: stub, failsWith: .serverFailure)
  }

  @Test func aConnectionGivenAsItIsMeetsItsExpectations() async {
    let connection = ServerConnection(
      configuration: .local(port: 8080), transport: StubTransport { _ in .encoded(harbour) })
    await expect(PlaceRequest(id: 7), on: connection, succeedsWith: harbour)
  }

  @Test func aWrongValueIsReportedWithWhatWasSentAndWhatCameBack() async throws {
    let server = try await MockServer.started()
    server.enqueue(.json(Place(id: 7, name: "Pier")))
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: server, succeedsWith: harbour)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("succeeded with a different value")
        && text.contains("sent: GET /places/7") && text.contains("came back: 200")
        && text.contains("Pier") && text.contains("Harbour")
    }
    await server.shutdown()
  }

  @Test func anUnexpectedFailureIsReportedWithItsCategory() async throws {
    let server = try await MockServer.started()
    server.enqueue(.status(404))
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: server, succeedsWith: harbour)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("failed.") && text.contains("category: notFound")
        && text.contains("came back: 404")
    }
    await server.shutdown()
  }

  @Test func aSuccessWhereAFailureWasExpectedIsReported() async {
    let stub = StubTransport { _ in .encoded(harbour) }
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: stub, failsWith: .notFound)
    } matching: { issue in
      String(describing: issue).contains("succeeded.")
        && String(describing: issue).contains("sent: GET http://")
    }
  }

  /// Headers a server answers with that hold credentials; their values must stay out of reports.
  private let credentialHeaders: HTTPHeaders = [
    "Set-Cookie": "session=SECRETVALUE; HttpOnly", "Authorization": "Bearer TOKENVALUE",
    "X-Session": "OTHERVALUE",
  ]

  private func leavesOutHeaderValues(_ issue: Issue) -> Bool {
    let text = String(describing: issue)
    return text.contains("succeeded.") && text.contains("Set-Cookie")
      && !text.contains("SECRETVALUE") && !text.contains("TOKENVALUE")
      && !text.contains("OTHERVALUE")
  }

  @Test func aSuccessIsReportedWithTheAnswersHeaderNamesButNotTheirValues() async throws {
    let server = try await MockServer.started()
    server.enqueue(.json(harbour, headers: credentialHeaders))
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: server, failsWith: .notFound)
    } matching: { issue in
      leavesOutHeaderValues(issue) && String(describing: issue).contains("Harbour")
    }
    await server.shutdown()
  }

  @Test func aSuccessOnAConnectionGivenAsItIsLeavesOutTheAnswersHeaderValues() async {
    let connection = ServerConnection(
      configuration: .local(port: 8080),
      transport: StubTransport { [credentialHeaders, harbour] _ in
        .encoded(harbour, headers: credentialHeaders)
      })
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: connection, failsWith: .notFound)
    } matching: { issue in
      leavesOutHeaderValues(issue)
    }
  }

  @Test func aFailureOfAnotherCategoryIsReported() async {
    let stub = StubTransport { _ in .status(503) }
    await withKnownIssue {
      await expect(PlaceRequest(id: 7), on: stub, failsWith: .notFound)
    } matching: { issue in
      String(describing: issue).contains("failed differently")
        && String(describing: issue).contains("category: serverFailure")
    }
  }
}
