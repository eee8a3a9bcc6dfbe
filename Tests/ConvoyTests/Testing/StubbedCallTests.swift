import Convoy
import ConvoyTesting
import Foundation
import Testing

@Suite struct StubbedCallTests {
  private struct Place: Decodable, Sendable, Equatable {
    var name: String
  }

  @Test func succeedsChecksTheDecodedValue() async {
    let call = StubCall<[Place]>(path: "places").stubbed(.json([["name": "Harbour"]]))
    #expect(await call.succeeds { $0.value == [Place(name: "Harbour")] })
    #expect(!(await call.succeeds { $0.value.isEmpty }))
    #expect(!(await call.fails()))
  }

  @Test func failsSayingMatchesTheServersMessage() async {
    let call = StubCall<Place>(path: "places/9").stubbed(
      .json(["reason": "No such place"], status: 404))
    #expect(await call.fails(saying: "No such place"))
    #expect(!(await call.fails(saying: "Something else")))
    #expect(!(await call.succeeds()))
  }

  @Test func undecodableAnswersFail() async {
    let call = StubCall<Place>(path: "places/1").stubbed(.json(["title": "x"]))
    #expect(
      await call.fails { error in
        if case .decodingFailed = error as? ServerConnectionError { return true }
        return false
      })
  }

  @Test func signedRequestsGetASessionToken() async throws {
    let request = StubCall<Place>(path: "me", authenticationRequirement: .accessToken)
    let sent = try #require(try await request.stubbed(.json(["name": "Ann"])).sentRequest())
    #expect(sent.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer stub-token")
    #expect(sent.url.absoluteString == "http://127.0.0.1:8080/me")
  }

  @Test func responseHandsBackTheTypedAnswer() async throws {
    let answer = try await StubbedCall(
      StubCall<Place>(path: "p"), answer: .json(["name": "Quay"], status: 201)
    ).response()
    #expect(answer.value == Place(name: "Quay"))
    #expect(answer.response.statusCode == 201)
  }
}
