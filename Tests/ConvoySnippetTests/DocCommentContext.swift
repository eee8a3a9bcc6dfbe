import Convoy
import Foundation

/// The app-side names the examples in doc comments use, so that each example compiles as it is
/// written; scripts/snippets puts every example in a function of an extension of this type.
enum DocCommentContext {}
