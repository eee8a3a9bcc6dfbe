/// One democli command: what it accepts (for parsing and `--help`) and what it does.
protocol Command: Sendable {
  /// Its name, options, arguments and help.
  static var spec: CommandSpec { get }
  /// Does the work; throws whatever failed, which the caller words and turns into an exit code.
  static func run(_ context: CommandContext) async throws
}

/// Every command, in the order help lists them.
enum Commands {
  static let all: [any Command.Type] = [
    LoginCommand.self, PlacesCommand.self, PlaceCommand.self, DownloadCommand.self,
    UploadCommand.self,
    WatchCommand.self, LiveCommand.self, QueueCommand.self, WhoamiCommand.self,
    LogoutCommand.self, EnvironmentsCommand.self, HelpCommand.self,
  ]

  static func named(_ name: String) -> (any Command.Type)? {
    all.first { $0.spec.name == name }
  }
}
