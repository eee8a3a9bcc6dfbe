import Foundation

/// Replaces an empty body with a fixed one, for endpoints that answer `200` with nothing where
/// the response type expects JSON: with `{}` an all-optional `Decodable` decodes instead of
/// failing.
///
/// Not in the standard chain, since raw ``DataResponse`` bodies must stay as sent. Put it after
/// ``StatusValidation``, so only accepted answers are changed:
///
/// ```swift
/// var decisions: [any ResponseDecision]? {
///   [RetryDecision(), StatusValidation(), EmptyBodyMapping(), ResponseDecoding()]
/// }
/// ```
public struct EmptyBodyMapping: ResponseDecision, DeadlineAware {
  /// The body put in place of an empty one.
  public var replacement: Data

  /// Creates the decision.
  ///
  /// - Parameter replacement: The body used instead of an empty one; `{}` by default.
  public init(replacement: Data = Data("{}".utf8)) {
    self.replacement = replacement
  }

  /// An empty JSON array instead of nothing, for list endpoints.
  public static let emptyArray = EmptyBodyMapping(replacement: Data("[]".utf8))

  /// Proceeds with the replacement when the body is empty or only whitespace, else as it is.
  public func decide<Request: RequestDescribing>(
    on response: TransportResponse, for request: Request, context: RequestContext
  ) async throws -> ResponseDecisionOutcome<Request.Response> {
    guard isBlank(response.data) else { return .proceed(response) }
    var mapped = response
    mapped.data = replacement
    return .proceed(mapped)
  }

  private func isBlank(_ data: Data) -> Bool {
    // JSON's whitespace (RFC 8259 §2); anything else is a body the decoder should judge.
    data.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
  }
}
