/// One extension of a `Sec-WebSocket-Extensions` list (RFC 6455 §9.1): its name and its
/// parameters in the order written, a parameter's value unquoted, `nil` when it has none.
///
/// Parameters stay a list, not a dictionary, so that a name given twice can be refused
/// (RFC 7692 §5) rather than silently keep one of its values.
package struct WebSocketExtensionElement: Sendable, Hashable {
  /// One `name[=value]` parameter.
  package struct Parameter: Sendable, Hashable {
    package var name: String
    package var value: String?

    package init(_ name: String, _ value: String? = nil) {
      self.name = name
      self.value = value
    }
  }

  package var name: String
  package var parameters: [Parameter]

  package init(name: String, parameters: [Parameter] = []) {
    self.name = name
    self.parameters = parameters
  }

  /// The element as a header writes it: `name; p1; p2=v`. Values are written bare, which
  /// suits the only values Convoy sends, window sizes; one that is not a token would need
  /// quoting.
  package var headerValue: String {
    let parameters = parameters.map { parameter in
      parameter.value.map { "\(parameter.name)=\($0)" } ?? parameter.name
    }
    return ([name] + parameters).joined(separator: "; ")
  }
}
