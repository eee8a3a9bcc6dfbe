// OAuth 2 bodies an authorization server sends: token answers (RFC 6749 §5.1), error answers
// (§5.2), device authorization answers (RFC 8628 §3.2) and server metadata (RFC 8414 §2).
// Checks: no crash; a decoded token is never empty-typed; an error always has its code; a
// token's description, which reaches logs, never depends on the token or refresh token; a
// device login's polling interval and lifetime stay bounded.
import Foundation

@testable import Convoy

private let head = HTTPResponse(
  statusCode: 200, url: URL(string: "https://auth.example.com/token"), headers: HTTPHeaders())

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(UnsafeBufferPointer(start: start, count: count))
  if let token = try? AccessTokenRequest.Response(data: data, response: head) {
    precondition(!token.accessToken.type.isEmpty, "a token without a type")
    _ = token.accessToken.expires(within: 60)
    // The description is the same whatever the secrets are: it shows neither.
    var other = token.accessToken
    other.value = "other"
    other.refreshToken = other.refreshToken.map { _ in "other" }
    precondition(
      String(describing: token.accessToken) == String(describing: other),
      "a token's description shows a secret")
  }
  if let error = AuthorizationError(
    body: data, context: ErrorContext(method: .post, statusCode: 400, body: data))
  {
    precondition(!error.code.rawValue.isEmpty, "an error without its code")
    _ = error.category
    _ = ErrorMessageProvider().message(for: error)
  }
  if let device = try? DeviceAuthorizationRequest.Response(data: data, response: head) {
    // The polling loop sleeps for the interval until the codes expire: both must stay bounded.
    precondition(device.authorization.interval >= 0, "a negative polling interval")
    precondition(
      device.authorization.expiresAt.timeIntervalSinceNow <= 3_600, "codes that outlive an hour")
  }
  if let metadata = try? JSONDecoder().decode(AuthorizationServerMetadata.self, from: data) {
    let endpoints = OAuthEndpoints().completed(by: metadata)
    precondition(endpoints.token == metadata.tokenEndpoint, "the token endpoint was not taken")
    if let issuer = URL(string: metadata.issuer) {
      _ = metadata.isIssued(by: issuer)
      _ = AuthorizationServerMetadata.locations(of: issuer)
    }
  }
  return 0
}
