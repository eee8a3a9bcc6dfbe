/// What a ``GroupOperation`` does when one of its children fails.
enum GroupFailurePolicy: Sendable, Hashable {
  /// The first error cancels the siblings still running, and the group fails with that error
  /// once they stopped.
  case failFast
  /// Every child runs to its end; the group hands back each child's result.
  case collectAll
}
