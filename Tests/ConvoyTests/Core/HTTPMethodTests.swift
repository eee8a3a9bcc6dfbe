import Convoy
import Testing

@Suite struct HTTPMethodTests {
  @Test func idempotencyFollowsRFC9110() {
    for method in [HTTPMethod.get, .head, .put, .delete, .options] { #expect(method.isIdempotent) }
    for method in [HTTPMethod.post, .patch] { #expect(!method.isIdempotent) }
  }

  @Test func extensionMethodsAreUpperCased() {
    #expect(HTTPMethod(rawValue: "purge").rawValue == "PURGE")
    #expect(HTTPMethod(rawValue: "get") == .get)
  }
}
