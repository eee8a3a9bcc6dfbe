import Convoy
import Foundation
import Testing

/// Docs/Errors.md's tables list every case of `ServerConnectionError` and every
/// `ErrorCategory` with its standard sentence, word for word.
@Suite struct ErrorsDocumentationTests {
  private static let page: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("Docs/Errors.md")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
  }()

  /// The rows of the page's tables: first cell → second cell, backticks kept.
  private static let rows: [String: String] = {
    var rows: [String: String] = [:]
    for line in page.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3 else { continue }
      rows[cells[1]] = cells[2]
    }
    return rows
  }()

  /// The case's name. The switch has no `default`, so a new case does not compile until it is
  /// named here; add it to ``everyCase`` then as well.
  private static func name(of error: ServerConnectionError) -> String {
    switch error {
    case .unexpectedResponse: "unexpectedResponse(context)"
    case .descriptiveServerError: "descriptiveServerError(message, context)"
    case .httpError: "httpError(status, context)"
    case .invalidURL: "invalidURL(reason)"
    case .encodingFailed: "encodingFailed(reason, context)"
    case .invalidHeader: "invalidHeader(name, context)"
    case .transportFailed: "transportFailed(TransportFailure, context)"
    case .decodingFailed: "decodingFailed(DecodingFailure, context)"
    case .timedOut: "timedOut(context)"
    case .notAuthenticated: "notAuthenticated(context)"
    case .sessionExpired: "sessionExpired(context)"
    case .refreshLimitExceeded: "refreshLimitExceeded(context)"
    case .insecureDestination: "insecureDestination(context)"
    case .bodyNotResendable: "bodyNotResendable(reason, context)"
    case .cancelled: "cancelled"
    }
  }

  private static let context = ErrorContext()
  private static let everyCase: [ServerConnectionError] = [
    .unexpectedResponse(context), .descriptiveServerError("m", context), .httpError(500, context),
    .invalidURL("r"), .encodingFailed("r", context), .invalidHeader("n", context),
    .transportFailed(TransportFailure(kind: .other, detail: "d"), context),
    .decodingFailed(
      DecodingFailure(reason: .other, responseType: "T", codingPath: "", debugDescription: "d"),
      context),
    .timedOut(context), .notAuthenticated(context), .sessionExpired(context),
    .refreshLimitExceeded(context), .insecureDestination(context),
    .bodyNotResendable("r", context), .cancelled,
  ]

  @Test func thePageIsFound() {
    #expect(!Self.page.isEmpty)
  }

  @Test(arguments: everyCase.map(name(of:)))
  func everyCaseOfServerConnectionErrorHasARow(name: String) {
    #expect(Self.rows["`\(name)`"]?.isEmpty == false, "Docs/Errors.md has no row for `\(name)`")
  }

  @Test(arguments: ErrorCategory.allCases)
  func everyCategoryHasARowWithItsStandardSentence(category: ErrorCategory) throws {
    let sentence = try #require(ErrorMessageProvider.standardWording[category]?.text)
    #expect(
      Self.rows[category.rawValue] == sentence,
      "Docs/Errors.md: | \(category.rawValue) | \(sentence) |")
  }
}
