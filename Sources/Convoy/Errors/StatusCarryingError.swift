/// An error about an answer that arrived, so events can say its status.
protocol StatusCarryingError: Error {
  /// The HTTP status of the answer behind the error, if one arrived.
  var statusCode: Int? { get }
}

extension ServerConnectionError: StatusCarryingError {}
