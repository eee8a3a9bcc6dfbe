import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard streams, written without buffering.
///
/// `print` to a pipe is block-buffered, so a prompt or a line written just before `exit` could
/// arrive late or never; every write here goes straight to the file descriptor.
enum Terminal {
  /// Whether standard input is a terminal a person types into.
  static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
  /// Whether standard error is a terminal, where progress and prompts may appear.
  static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// Writes `text` to standard output at once.
  static func writeOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes `text` to standard error at once.
  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// One line of standard input without its line ending; `nil` at end of input.
  static func readInputLine() -> String? {
    readLine(strippingNewline: true).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
  }

  /// Asks on standard error and reads the answer from the terminal.
  static func prompt(_ question: String) -> String? {
    writeError(question)
    return readInputLine()
  }

  /// Asks on standard error and reads the answer with echo off, so a password never shows.
  ///
  /// Echo is switched back on when the answer arrives, and also when Ctrl-C interrupts the
  /// prompt (through `interruption`), so the shell is never left silent.
  static func promptSecret(_ question: String, interruption: Interruption) -> String? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { return prompt(question) }
    var silent = original
    silent.c_lflag &= ~tcflag_t(ECHO)
    // Echo goes off before the question appears, so nothing typed after it can ever show.
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    writeError(question)
    let saved = original
    let restore: @Sendable () -> Void = {
      var settings = saved
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
      writeError("\n")
    }
    let registration = interruption.onInterrupt(restore)
    defer {
      interruption.remove(registration)
      restore()
    }
    return readInputLine()
  }
}
