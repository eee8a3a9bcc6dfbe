import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct SigningTests {
  @Test func signsRequestsThatNeedTheSession() async throws {
    let server = TokenServer()
    let connection = try server.connection()
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
    let sent = try #require(server.transport.requests.first?.urlRequest)
    #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
  }

  @Test func leavesOtherRequestsUnsigned() async throws {
    struct Public: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "public" }
    }
    let server = TokenServer()
    let connection = try server.connection()
    _ = try? await connection.execute(Public())
    #expect(
      server.transport.requests.first?.urlRequest.value(forHTTPHeaderField: "Authorization") == nil)
  }

  @Test func withoutASessionFailsAtOnceWithoutSending() async throws {
    let server = TokenServer()
    let connection = try server.connection()
    try await connection.logout()
    await #expect {
      try await connection.execute(Me())
    } throws: { error in
      guard case .notAuthenticated = error as? ServerConnectionError else { return false }
      return ErrorMessageProvider.standard.message(for: error)?.text
        == "You need to log in to do that."
    }
    #expect(server.transport.requests.isEmpty)
  }

  @Test func neverSendsATokenOverPlainHTTPToAnotherMachine() async throws {
    let server = TokenServer()
    let connection = try server.connection(baseURL: "http://api.example.com/")
    await #expect {
      try await connection.execute(Me())
    } throws: { error in
      if case .insecureDestination = error as? ServerConnectionError { return true }
      return false
    }
    #expect(server.transport.requests.isEmpty)
  }

  @Test func sendsOverPlainHTTPToLoopback() async throws {
    let server = TokenServer()
    let connection = try server.connection(baseURL: "http://127.0.0.1:8080/")
    #expect(try await connection.execute(Me()).value == ["me": "alice"])
  }

  @Test func neverSendsATokenToAnotherHost() async throws {
    struct Elsewhere: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "https://evil.example/steal" }
      var authenticationRequirement: AuthenticationRequirement { .accessToken }
    }
    let server = TokenServer()
    let connection = try server.connection()
    await #expect {
      try await connection.execute(Elsewhere())
    } throws: { error in
      if case .insecureDestination = error as? ServerConnectionError { return true }
      return false
    }
    #expect(server.transport.requests.isEmpty)
  }

  @Test func neverSendsATokenToAnotherPortOfTheSameHost() async throws {
    struct OtherPort: RequestDescribing {
      typealias Response = DataResponse
      var method: HTTPMethod { .get }
      var path: String { "http://127.0.0.1:9090/me" }
      var authenticationRequirement: AuthenticationRequirement { .accessToken }
    }
    let server = TokenServer()
    let connection = try server.connection(baseURL: "http://127.0.0.1:8080/")
    await #expect {
      try await connection.execute(OtherPort())
    } throws: { error in
      if case .insecureDestination = error as? ServerConnectionError { return true }
      return false
    }
    #expect(server.transport.requests.isEmpty)
  }

  @Test func secretsStayOutOfDescriptionsAndDumps() {
    let session = TokenServer.session(token: "eyJ.top-secret")
    var dumped = ""
    dump(session, to: &dumped)
    for text in [
      String(describing: session), String(reflecting: session), dumped, "\(session.accessToken)",
    ] {
      #expect(!text.contains("top-secret"))
      #expect(!text.contains("client-s3cret"))
      #expect(!text.contains("refresh-r1"))
    }
  }
}
