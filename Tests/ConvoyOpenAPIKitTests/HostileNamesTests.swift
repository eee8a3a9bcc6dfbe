import ConvoyOpenAPIKit
import Foundation
import Testing

/// Any name a document may choose produces code that compiles: the generated code's own
/// locals (`container`, `decoder`, `encoder`), Swift keywords, `self`, `Type`, the members of
/// `Codable`, `Hashable` and `CodingKey`, and names that differ only in case or punctuation.
@Suite struct HostileNamesTests {
  @Test func aDocumentOfHostileNamesGeneratesCodeThatCompilesWithoutWarnings() async throws {
    let output = try OpenAPIGenerator.generate(try fixture("hostile-names.yaml"))
    let complaints = try await compilerComplaints(about: output.files)
    #expect(complaints == nil, "\(complaints ?? "")")
  }

  // A description with CR LF or a lone CR wrote its next line into the generated file as code:
  // the doc comment was split by `Character`, and CR LF is one.
  @Test func aDescriptionCannotEndItsDocCommentAndWriteCode() throws {
    let breaks = [#"\r\n"#, #"\r"#, #"\n"#, #"\u0085"#, #"\u2028"#, #"\u2029"#]
    let text = "Fine." + breaks.map { "\($0)struct Injected {}" }.joined()
    let document = #"""
      {"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
       "paths": {"/a": {"get": {"operationId": "getA", "description": "\#(text)",
         "responses": {"200": {"description": "OK", "content": {"application/json":
           {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
       "components": {"schemas": {"Thing": {"type": "object", "description": "\#(text)",
         "properties": {"name": {"type": "string", "description": "\#(text)"}}}}}}
      """#
    let output = try OpenAPIGenerator.generate(document)
    let lines = output.files.map(\.contents).joined(separator: "\n").unicodeScalars
      .split(whereSeparator: { ["\r", "\n", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) })
      .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: .whitespaces) }
    let injected = lines.filter { $0.contains("Injected") }
    // The operation's description documents its request type and its factory.
    #expect(injected.count == breaks.count * 4, "each description line is one doc line")
    #expect(injected.allSatisfy { $0 == "/// struct Injected {}" }, "\(injected)")
  }

  @Test func namesThatDifferOnlyInCaseOrPunctuationStayApartAndKeepTheirJSONKeys() throws {
    let output = try OpenAPIGenerator.generate(try fixture("hostile-names.yaml"))
    let source = output.files.map(\.contents).joined(separator: "\n")
    for key in ["foo_bar", "fooBar", "FooBar", "foo-bar", "foo bar", "FOO_BAR"] {
      #expect(source.contains("\"\(key)\""), "no coding key for \(key)")
    }
    #expect(source.contains("var fooBar: String?"))
    #expect(source.contains("var fooBar2: String?"))
  }
}
