import Convoy
import ConvoyTesting
import Foundation
import Testing

/// A login that fails at the token endpoint says why in words that fit: wrong credentials, an app
/// that is not set up for this server, or a server that is down.
@Suite struct TokenEndpointErrorTests {
  private static func loginError(answer: StubAnswer) async -> (any Error)? {
    let transport = StubTransport { _ in answer }
    let connection = ServerConnection(
      configuration: ServerConfiguration(
        environment: .staging, baseURL: URL(string: "https://id.example.com/")!),
      transport: transport)
    do {
      _ = try await connection.execute(
        AccessTokenRequest(
          grant: .password(username: "ada", password: "pw"),
          client: OAuthClient(
            id: "app", secret: "wrong", endpoints: OAuthEndpoints(token: "oauth/token")),
          endpoint: "oauth/token"))
      return nil
    } catch {
      return error
    }
  }

  private static func text(_ error: (any Error)?) -> String? {
    error.flatMap { ErrorMessageProvider.standard.message(for: $0)?.text }
  }

  @Test func aWrongClientSecretSaysTheAppIsMisconfigured() async {
    let error = await Self.loginError(answer: .json(["error": "invalid_client"], status: 401))
    #expect(
      Self.text(error)
        == "This app isn't set up correctly to log in to this server. Please update the app "
        + "or contact support.")
  }

  @Test func anUnauthorizedClientSaysTheAppIsMisconfigured() async {
    let error = await Self.loginError(
      answer: .json(
        ["error": "unauthorized_client", "error_description": "grant not allowed"], status: 400))
    #expect(
      Self.text(error)
        == "This app isn't set up correctly to log in to this server. Please update the app "
        + "or contact support.")
  }

  @Test func anInvalidGrantSaysTheCredentialsAreWrong() async {
    let error = await Self.loginError(
      answer: .json(
        ["error": "invalid_grant", "error_description": "Invalid credentials given."],
        status: 400))
    #expect(Self.text(error) == "The email or password isn't right. Check them and try again.")
  }

  @Test func aFailingTokenEndpointSaysTheServerHasAProblem() async {
    let error = await Self.loginError(answer: .json(["error": "server_error"], status: 503))
    #expect(Self.text(error) == "The server ran into a problem. Please try again later.")
  }

  @Test func anUnreachableTokenEndpointSaysTheServerCannotBeReached() async {
    let error = await Self.loginError(
      answer: .failure(TransportFailure(kind: .cannotConnectToHost, detail: "refused")))
    #expect(
      Self.text(error)
        == "The server can't be reached right now. Check your connection or try again later.")
  }
}

@Suite struct RefusedGrantWordingTests {
  @Test func aRefusedCodeAsksToStartAgainNotForAPassword() {
    let refusedCode = AuthorizationError(
      code: .invalidGrant, context: ErrorContext(), grantType: "authorization_code")
    #expect(ErrorMessageProvider.category(of: refusedCode) == .loginNotConfirmed)
    let refusedPassword = AuthorizationError(
      code: .invalidGrant, context: ErrorContext(), grantType: "password")
    #expect(ErrorMessageProvider.category(of: refusedPassword) == .wrongCredentials)
  }
}

@Suite struct LoginOutcomeWordingTests {
  private static func text(_ error: any Error) -> String? {
    ErrorMessageProvider.standard.message(for: error)?.text
  }

  @Test func aPersonWhoDeniedTheLoginIsToldItWasCancelledNotThatTheyAreNotAllowed() {
    for grant in ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code", nil] {
      let denied = AuthorizationError(
        code: .accessDenied, context: ErrorContext(), grantType: grant)
      #expect(ErrorMessageProvider.category(of: denied) == .loginDeclined)
      #expect(
        Self.text(denied)
          == "The login was cancelled or not approved. Start it again when you're ready.")
    }
  }

  @Test func aRefusedPKCEVerifierIsNotWordedAsATimeout() {
    let refused = AuthorizationError(
      code: .invalidGrant, serverDescription: "Code verifier does not match",
      context: ErrorContext(), grantType: "authorization_code")
    #expect(Self.text(refused) == "The login couldn't be confirmed. Please start it again.")
    #expect(Self.text(BrowserLoginError.stateMismatch) == Self.text(refused))
  }

  @Test func aDeviceCodeNotApprovedInTimeIsWordedAsSuch() {
    let refused = AuthorizationError(
      code: .invalidGrant, context: ErrorContext(),
      grantType: "urn:ietf:params:oauth:grant-type:device_code")
    #expect(Self.text(refused) == "The login wasn't completed in time. Please start it again.")
    #expect(Self.text(BrowserLoginError.timedOut(300)) == Self.text(refused))
  }
}
