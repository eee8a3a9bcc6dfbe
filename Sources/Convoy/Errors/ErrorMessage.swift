/// A short sentence a person can act on, with an optional title for alerts.
public struct ErrorMessage: Sendable, Hashable, CustomStringConvertible {
  /// A few words for an alert's title, e.g. "You're offline".
  public var title: String?
  /// The sentence, e.g. "Check your connection and try again."
  public var text: String

  /// Creates a message.
  public init(title: String? = nil, text: String) {
    self.title = title
    self.text = text
  }

  /// The text.
  public var description: String { text }
}
