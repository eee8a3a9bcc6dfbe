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
