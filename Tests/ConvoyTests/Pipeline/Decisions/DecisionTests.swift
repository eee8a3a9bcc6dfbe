import ConvoyTesting
import Foundation
import Testing

@testable import Convoy

private struct Profile: Decodable, Sendable {
  var nickname: String?
}

private struct ProfileRequest: RequestDescribing {
  typealias Response = JSONResponse<Profile>
  var method: HTTPMethod { .get }
  var path: String { "me" }
  var decisions: [any ResponseDecision]? {
    [RetryDecision(), StatusValidation(), EmptyBodyMapping(), ResponseDecoding()]
  }
}

@Suite struct DecisionTests {
  private func decide(
    _ decision: some ResponseDecision, _ response: TransportResponse,
    context: RequestContext = .probe()
  ) async throws -> ResponseDecisionOutcome<DataResponse> {
    try await decision.decide(on: response, for: ProbeRequest(), context: context)
  }

  @Test func anAPIErrorBodyBecomesADescriptiveServerError() async throws {
    let body = Data(#"{"error": true, "code": 999, "reason": "Invalid Token."}"#.utf8)
    let outcome = try await decide(StatusValidation(), transportResponse(status: 401, body: body))
    guard case .fail(let error as ServerConnectionError) = outcome,
      case .descriptiveServerError(let message, let context) = error
    else {
      Issue.record("expected a descriptive error, got \(outcome)")
      return
    }
    #expect(message == "Invalid Token.")
    #expect(context.statusCode == 401)
  }

  @Test func theErrorShapeIsConfigurable() async throws {
    let parser = ServerErrorMessageParser(messageKeys: ["errors.0.detail", "problem.text"])
    let jsonAPI = Data(#"{"errors": [{"detail": "Name is taken."}]}"#.utf8)
    let custom = Data(#"{"problem": {"text": "Slow down."}}"#.utf8)
    #expect(parser.message(in: transportResponse(status: 422, body: jsonAPI)) == "Name is taken.")
    #expect(parser.message(in: transportResponse(status: 429, body: custom)) == "Slow down.")
    let other = Data(#"{"reason": "ignored"}"#.utf8)
    #expect(parser.message(in: transportResponse(status: 400, body: other)) == nil)
    #expect(parser.message(in: transportResponse(status: 400, body: Data("[1]".utf8))) == nil)
  }

  @Test func aBodyWithoutAMessageIsAPlainHTTPError() async throws {
    let outcome = try await decide(
      StatusValidation(), transportResponse(status: 500, body: Data("<html>".utf8)))
    guard case .fail(ServerConnectionError.httpError(500, _)) = outcome else {
      Issue.record("expected httpError(500), got \(outcome)")
      return
    }
  }

  @Test func statusesTheRequestAcceptsProceed() async throws {
    let outcome = try await decide(
      StatusValidation(), transportResponse(status: 404),
      context: .probe(acceptableStatusCodes: 200..<500))
    guard case .proceed = outcome else {
      Issue.record("expected proceed, got \(outcome)")
      return
    }
  }

  @Test func anEmptyBodyIsMappedAndOthersAreLeftAlone() async throws {
    for (body, expected) in [("", "{}"), (" \r\n", "{}"), ("[]", "[]"), ("null", "null")] {
      let outcome = try await decide(
        EmptyBodyMapping(), transportResponse(status: 200, body: Data(body.utf8)))
      guard case .proceed(let mapped) = outcome else {
        Issue.record("expected proceed")
        continue
      }
      #expect(String(decoding: mapped.data, as: UTF8.self) == expected)
    }
    let listOutcome = try await decide(EmptyBodyMapping.emptyArray, transportResponse(status: 200))
    guard case .proceed(let list) = listOutcome else { return }
    #expect(list.data == Data("[]".utf8))
  }

  @Test func anEndpointThatAnswersWithNothingDecodesThroughTheMapping() async throws {
    let transport = StubTransport { _ in .status(200) }
    let response = try await probeConnection(transport).execute(ProfileRequest())
    #expect(response.value.nickname == nil)
  }

  @Test func retryHandsOnWhatItWillNotRetry() async throws {
    let outcome = try await decide(RetryDecision(), transportResponse(status: 404))
    guard case .proceed = outcome else {
      Issue.record("expected proceed, got \(outcome)")
      return
    }
    let retried = try await decide(
      RetryDecision(policy: RetryPolicy(baseDelay: 0.25, jitter: 0)), transportResponse(status: 503)
    )
    guard case .retry(let delay) = retried else {
      Issue.record("expected retry, got \(retried)")
      return
    }
    #expect(delay == 0.25)
  }
}
