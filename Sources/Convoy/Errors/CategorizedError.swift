/// An error that knows which ``ErrorCategory`` it belongs to.
///
/// ``ErrorMessageProvider`` asks such errors first, so a layer above this one (authentication,
/// an app's own module) can have its errors worded without this folder knowing its types.
public protocol CategorizedError: Error {
  /// The family the error belongs to.
  var category: ErrorCategory { get }
}
