import Convoy

/// A response type whose content a report can show without its head: the head's header values
/// may be credentials, so a report never prints a response as a whole.
protocol ReportedResponse {
  /// What the response holds besides its head, in one line.
  var reportedContent: String { get }
}

extension JSONResponse: ReportedResponse {
  var reportedContent: String { "value: \(value)" }
}

extension DataResponse: ReportedResponse {
  var reportedContent: String { "body: \(data.count) bytes" }
}

extension EmptyResponse: ReportedResponse {
  var reportedContent: String { "no body" }
}
