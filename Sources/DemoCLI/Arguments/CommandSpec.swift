/// What a command accepts, for the parser and for `--help`.
struct CommandSpec: Sendable {
  /// A positional argument, e.g. the id of `place <id>`.
  struct Argument: Sendable, Hashable {
    var name: String
    var isOptional = false
    var help: String
  }

  /// The word that selects it, e.g. `"places"`.
  var name: String
  /// One line for the command list.
  var summary: String
  /// Options beyond the ones every command accepts.
  var options: [OptionSpec] = []
  /// Positional arguments, in order.
  var arguments: [Argument] = []
  /// A few lines of help below the options: details and examples.
  var discussion: String = ""
}
