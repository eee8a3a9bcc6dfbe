import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A grant is a type of its own: one Convoy does not ship goes out like the built-in ones.
@Suite struct OAuthGrantTests {
  /// RFC 7523's JWT bearer grant, written as an app would.
  struct JWTBearerGrant: OAuthGrant {
    var assertion: String
    var grantType: String { "urn:ietf:params:oauth:grant-type:jwt-bearer" }
    var parameters: [String: String] { ["assertion": assertion] }
    var asksForScopes: Bool { true }
  }

  static let client = OAuthClient(
    id: "app", secret: "s3cret", authenticationMethod: .clientSecretPost,
    scopes: ["read", "write"], endpoints: OAuthEndpoints(token: "oauth/token"),
    additionalParameters: ["audience": "places"])

  /// Sends `grant` to a token endpoint that issues a token, and returns the form it got.
  static func formSent(for grant: some OAuthGrant) async throws -> [String: String] {
    let transport = StubTransport { _ in
      .json(["access_token": "issued", "token_type": "Bearer"])
    }
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://id.example.com/")!),
      transport: transport)
    let answer = try await connection.execute(
      AccessTokenRequest(grant: grant, client: client, endpoint: "oauth/token"))
    #expect(answer.accessToken.value == "issued")
    return StubRequest(try #require(transport.requests.first)).formBody
  }

  @Test func aGrantOfAnAppsOwnGoesOutWithItsTypeItsParametersAndTheClient() async throws {
    let form = try await Self.formSent(for: JWTBearerGrant(assertion: "eyJ.payload.sig"))
    #expect(
      form == [
        "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
        "assertion": "eyJ.payload.sig", "scope": "read write", "audience": "places",
        "client_id": "app", "client_secret": "s3cret",
      ])
  }

  @Test func aRefreshKeepsItsScopesAndSendsNone() async throws {
    let form = try await Self.formSent(for: .refreshToken("r1"))
    #expect(form["grant_type"] == "refresh_token")
    #expect(form["refresh_token"] == "r1")
    #expect(form["scope"] == nil)
  }

  @Test func theBuiltInGrantsSendTheirRegisteredTypes() async throws {
    let grants: [any OAuthGrant] = [
      PasswordGrant(username: "ada", password: "pw"), ClientCredentialsGrant(),
      AuthorizationCodeGrant(code: "c", redirectURI: "http://127.0.0.1/cb", codeVerifier: "v"),
      DeviceCodeGrant(deviceCode: "d"), RefreshTokenGrant(refreshToken: "r"),
    ]
    #expect(
      grants.map(\.grantType) == [
        "password", "client_credentials", "authorization_code",
        "urn:ietf:params:oauth:grant-type:device_code", "refresh_token",
      ])
  }

  @Test func aGrantShowsItsTypeAndNoCredential() {
    let grants: [any OAuthGrant] = [
      PasswordGrant(username: "ada", password: "lovelace"),
      AuthorizationCodeGrant(
        code: "code-secret", redirectURI: "http://127.0.0.1/cb", codeVerifier: "verifier-secret"),
      DeviceCodeGrant(deviceCode: "device-secret"), RefreshTokenGrant(refreshToken: "r-secret"),
      JWTBearerGrant(assertion: "assertion-secret"),
    ]
    for grant in grants {
      var dumped = ""
      dump(grant, to: &dumped)
      for text in [String(describing: grant), dumped] {
        #expect(text.contains(grant.grantType))
        #expect(!text.contains("lovelace") && !text.contains("secret"))
      }
    }
  }
}
