import Convoy
import Foundation
import Testing

@Suite struct SecretRedactorTests {
  @Test func removesUserInfoAndSensitiveQueryValuesFromURLs() {
    let url = URL(string: "https://bob:hunter2@h.example/cb?code=Zx81&state=ok&access_token=eyJx")!
    let redacted = SecretRedactor.redact(url)
    #expect(!redacted.contains("hunter2"))
    #expect(!redacted.contains("Zx81"))
    #expect(!redacted.contains("eyJx"))
    #expect(redacted.contains("state=ok"))
  }

  @Test func masksSensitiveJSONFieldsAndFormParameters() {
    let json =
      #"{"access_token":"eyJhbGciOi.secret","token_type":"Bearer","refresh_token": "r-123"}"#
    let redactedJSON = SecretRedactor.redact(json)
    #expect(!redactedJSON.contains("eyJhbGciOi"))
    #expect(!redactedJSON.contains("r-123"))
    #expect(redactedJSON.contains("Bearer"))

    let form = "grant_type=password&username=a%40b.c&password=hunter2&client_secret=s3cr3t"
    let redactedForm = SecretRedactor.redact(form)
    #expect(!redactedForm.contains("hunter2"))
    #expect(!redactedForm.contains("s3cr3t"))
    #expect(redactedForm.contains("grant_type=password"))
  }

  @Test func masksCredentialHeaders() {
    let headers = SecretRedactor.redact(["Authorization": "Bearer abc", "Accept": "*/*"])
    #expect(headers["authorization"] == SecretRedactor.mask)
    #expect(headers["Accept"] == "*/*")
  }

  @Test func excerptsAreShortAndSkipBinary() {
    let long = Data(String(repeating: "a", count: 2_000).utf8)
    #expect(SecretRedactor.excerpt(of: long)!.count <= 513)
    #expect(SecretRedactor.excerpt(of: Data([0xFF, 0xFE, 0x00])) == nil)
    #expect(SecretRedactor.excerpt(of: Data()) == nil)
  }

  @Test func errorContextsNeverCarrySecrets() {
    let context = ErrorContext(
      method: .post, url: URL(string: "https://u:pw@h.example/t?token=abc")!, statusCode: 400,
      body: Data(#"{"password":"hunter2","reason":"bad"}"#.utf8))
    let text = String(describing: ServerConnectionError.httpError(400, context))
    for secret in ["pw@", "token=abc", "hunter2"] { #expect(!text.contains(secret)) }
    #expect(text.contains("400"))
  }
}
