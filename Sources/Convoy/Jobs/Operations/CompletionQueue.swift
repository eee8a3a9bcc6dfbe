import Dispatch

extension DispatchQueue {
  /// Where Convoy delivers completions and progress unless told otherwise: a serial queue of
  /// its own, so a first callback fires in every kind of program.
  ///
  /// The main queue would be the natural default for apps, but it runs only while something
  /// drives the main run loop: in a command-line tool, a server or under `swift test` a completion
  /// sent there silently never runs. Apps that update their UI from a completion pass `.main`.
  ///
  /// ```swift
  /// connection.execute(PlacesRequest(), completionQueue: .main) { result in show(result) }
  /// ```
  public static let convoyCompletions = DispatchQueue(label: "org.convoy.completions")
}
