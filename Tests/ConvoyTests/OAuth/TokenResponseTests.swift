import Convoy
import Foundation
import Testing

/// How a token endpoint's answer (RFC 6749 §5.1) becomes an `AccessToken`.
@Suite struct TokenResponseTests {
  private func token(_ json: String) throws -> AccessToken {
    let head = HTTPResponse(
      statusCode: 200, url: URL(string: "https://id.example.com/token"), headers: HTTPHeaders())
    return try AccessTokenRequest.Response(data: Data(json.utf8), response: head).accessToken
  }

  // Found by FuzzOAuthBodies (issue #27): an empty token_type made an empty scheme, so the
  // Authorization header would have started with a space.
  @Test(arguments: [#""""#, #""  ""#])
  func anEmptyTokenTypeCountsAsBearer(type: String) throws {
    #expect(try token(#"{"access_token":"MA","token_type":\#(type)}"#).type == "Bearer")
  }

  @Test func bearerInAnyCaseIsBearerAndOtherTypesAreKept() throws {
    #expect(try token(#"{"access_token":"a","token_type":"bEaReR"}"#).type == "Bearer")
    #expect(try token(#"{"access_token":"a","token_type":"DPoP"}"#).type == "DPoP")
    #expect(try token(#"{"access_token":"a"}"#).type == "Bearer")
  }
}
