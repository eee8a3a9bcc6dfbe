import Convoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Bearer: RequestDescribing {
  struct Answer: Decodable, Sendable {
    var authenticated: Bool
    var token: String
  }
  typealias Response = JSONResponse<Answer>
  var authenticationRequirement: AuthenticationRequirement
  var method: HTTPMethod { .get }
  var path: String { "bearer" }
}

private struct HeadersAfterRedirect: RequestDescribing {
  struct Answer: Decodable, Sendable { var headers: [String: String] }
  typealias Response = JSONResponse<Answer>
  var target: URL
  var method: HTTPMethod { .get }
  var path: String { "redirect-to" }
  var queryItems: [URLQueryItem] { [URLQueryItem(name: "url", value: target.absoluteString)] }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

@Suite(.needs(.httpbin)) struct AuthenticationIntegrationTests {
  private func connection(loggedIn: Bool) throws -> ServerConnection {
    let connection = ServerConnection(
      configuration: ServerConfiguration(environment: .local, baseURL: HTTPBin.shared.baseURL),
      transport: URLSessionTransport())
    if loggedIn {
      try connection.login(
        session: Session(
          clientSecret: ClientSecret(id: "app", secret: "s"),
          accessToken: AccessToken(
            value: "integration-token", expiresAt: Date().addingTimeInterval(600))))
    }
    return connection
  }

  @Test func bearerAcceptsTheSignedRequest() async throws {
    let answer = try await connection(loggedIn: true).execute(
      Bearer(authenticationRequirement: .accessToken))
    #expect(answer.value.authenticated)
    #expect(answer.value.token == "integration-token")
  }

  @Test func bearerRefusesAnUnsignedRequest() async throws {
    await #expect {
      try await connection(loggedIn: true).execute(Bearer(authenticationRequirement: .none))
    } throws: { error in
      (error as? ServerConnectionError)?.statusCode == 401
    }
  }

  @Test func aSignedRequestWithoutSessionFailsBeforeSending() async throws {
    await #expect {
      try await connection(loggedIn: false).execute(Bearer(authenticationRequirement: .accessToken))
    } throws: { error in
      if case .notAuthenticated = error as? ServerConnectionError { return true }
      return false
    }
  }

  @Test func aRedirectToAnotherHostArrivesWithoutTheToken() async throws {
    let answer = try await connection(loggedIn: true).execute(
      HeadersAfterRedirect(target: HTTPBin.other.url("/headers")))
    #expect(answer.value.headers["Authorization"] == nil)
    #expect(answer.value.headers["Host"]?.hasPrefix("127.0.0.2") == true)
  }

  @Test func aRedirectOnTheSameHostKeepsTheToken() async throws {
    let answer = try await connection(loggedIn: true).execute(
      HeadersAfterRedirect(target: HTTPBin.shared.url("/headers")))
    #expect(answer.value.headers["Authorization"] == "Bearer integration-token")
  }
}
