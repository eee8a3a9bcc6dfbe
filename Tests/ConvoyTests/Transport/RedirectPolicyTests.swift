import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct RedirectPolicyTests {
  private func request(_ method: HTTPMethod, _ url: String, body: String? = "payload")
    -> TransportRequest
  {
    var urlRequest = URLRequest(url: URL(string: url)!)
    urlRequest.httpMethod = method.rawValue
    urlRequest.httpBody = body.map { Data($0.utf8) }
    urlRequest.setValue("Bearer t0ken", forHTTPHeaderField: "Authorization")
    urlRequest.setValue("text/plain", forHTTPHeaderField: "Content-Type")
    return TransportRequest(urlRequest: urlRequest)
  }

  private func response(_ status: Int, from url: String, to location: String) -> HTTPResponse {
    HTTPResponse(statusCode: status, url: URL(string: url)!, headers: ["Location": location])
  }

  @Test(arguments: [307, 308])
  func temporaryAndPermanentRedirectsKeepMethodAndBody(status: Int) throws {
    let next = try RedirectPolicy.standard.nextRequest(
      after: request(.post, "https://a.example/x"),
      response: response(status, from: "https://a.example/x", to: "/y"), hopsSoFar: 0)
    #expect(next?.urlRequest.url?.absoluteString == "https://a.example/y")
    #expect(next?.urlRequest.httpMethod == "POST")
    #expect(next?.urlRequest.httpBody == Data("payload".utf8))
    #expect(next?.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
  }

  @Test(arguments: [307, 308])
  func aBodyThatCannotBeReplayedIsNotResentTheRedirectIsTheAnswer(status: Int) throws {
    var oneShot = request(.post, "https://a.example/x")
    oneShot.isBodyReplayable = false
    let redirect = response(status, from: "https://a.example/x", to: "/y")
    #expect(
      try RedirectPolicy.standard.nextRequest(after: oneShot, response: redirect, hopsSoFar: 0)
        == nil)
    // Without a body there is nothing to resend, and a 303 drops the body anyway.
    let bodiless = TransportRequest(
      urlRequest: URLRequest(url: URL(string: "https://a.example/x")!), isBodyReplayable: false)
    #expect(
      try RedirectPolicy.standard.nextRequest(after: bodiless, response: redirect, hopsSoFar: 0)
        != nil)
    let seeOther = response(303, from: "https://a.example/x", to: "/y")
    #expect(
      try RedirectPolicy.standard.nextRequest(after: oneShot, response: seeOther, hopsSoFar: 0)?
        .urlRequest.httpMethod == "GET")
  }

  @Test(arguments: [301, 302, 303])
  func postBecomesGetWithoutBody(status: Int) throws {
    let next = try RedirectPolicy.standard.nextRequest(
      after: request(.post, "https://a.example/x"),
      response: response(status, from: "https://a.example/x", to: "https://a.example/y"),
      hopsSoFar: 0)
    #expect(next?.urlRequest.httpMethod == "GET")
    #expect(next?.urlRequest.httpBody == nil)
    #expect(next?.urlRequest.value(forHTTPHeaderField: "Content-Type") == nil)
  }

  @Test func seeOtherTurnsPutIntoGetButFoundKeepsPut() throws {
    let seeOther = try RedirectPolicy.standard.nextRequest(
      after: request(.put, "https://a.example/x"),
      response: response(303, from: "https://a.example/x", to: "/y"), hopsSoFar: 0)
    #expect(seeOther?.urlRequest.httpMethod == "GET")
    let found = try RedirectPolicy.standard.nextRequest(
      after: request(.put, "https://a.example/x"),
      response: response(302, from: "https://a.example/x", to: "/y"), hopsSoFar: 0)
    #expect(found?.urlRequest.httpMethod == "PUT")
  }

  @Test(arguments: [
    "https://b.example/y", "http://a.example/y", "https://a.example:8443/y",
  ])
  func credentialsAreDroppedWhenTheOriginChanges(location: String) throws {
    let next = try RedirectPolicy.standard.nextRequest(
      after: request(.get, "https://a.example/x", body: nil),
      response: response(302, from: "https://a.example/x", to: location), hopsSoFar: 0)
    #expect(next != nil)
    #expect(next?.urlRequest.value(forHTTPHeaderField: "Authorization") == nil)
  }

  @Test func credentialsSurviveAnUpgradeToHTTPSOnTheSameHost() throws {
    let next = try RedirectPolicy.standard.nextRequest(
      after: request(.get, "http://a.example/x", body: nil),
      response: response(301, from: "http://a.example/x", to: "https://a.example/x"),
      hopsSoFar: 0)
    #expect(next?.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
  }

  @Test func passingTheHopLimitFails() {
    let policy = RedirectPolicy(maximumHops: 2)
    #expect(throws: TransportFailure.self) {
      try policy.nextRequest(
        after: request(.get, "https://a.example/x", body: nil),
        response: response(302, from: "https://a.example/x", to: "/x"), hopsSoFar: 2)
    }
  }

  @Test func neverFollowingReturnsNoNextRequest() throws {
    let next = try RedirectPolicy.never.nextRequest(
      after: request(.get, "https://a.example/x", body: nil),
      response: response(302, from: "https://a.example/x", to: "/y"), hopsSoFar: 0)
    #expect(next == nil)
  }

  @Test func nonRedirectStatusesAndNonHTTPLocationsAreNotFollowed() throws {
    for (status, location) in [(200, "/y"), (304, "/y"), (302, "ftp://a.example/f")] {
      let next = try RedirectPolicy.standard.nextRequest(
        after: request(.get, "https://a.example/x", body: nil),
        response: response(status, from: "https://a.example/x", to: location), hopsSoFar: 0)
      #expect(next == nil)
    }
  }
}
