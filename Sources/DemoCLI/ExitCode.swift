import Convoy
import Foundation

/// democli's exit codes: one per family of failure, from BSD's `sysexits.h` where one fits, so
/// scripts can tell "log in again" from "try later" without reading the sentence.
/// Docs/DemoCLI.md lists them; tests pin them.
enum ExitCode: Int32, Sendable, CaseIterable {
  /// Done.
  case success = 0
  /// A failure no other code describes.
  case failure = 1
  /// The command line was wrong (`EX_USAGE`).
  case usage = 64
  /// The server refused what was sent (`EX_DATAERR`).
  case invalidInput = 65
  /// The place or thing asked for does not exist (`EX_NOINPUT`).
  case notFound = 66
  /// Offline, server unreachable, not secure, failing with 5xx, or not cached while loading is
  /// not allowed (`EX_UNAVAILABLE`).
  case unavailable = 69
  /// democli built a request that cannot be sent (`EX_SOFTWARE`).
  case software = 70
  /// A download could not be saved: the disk is full or the place is not writable
  /// (`EX_CANTCREAT`).
  case cannotCreate = 73
  /// What was being uploaded could not be read to its end (`EX_IOERR`).
  case inputUnreadable = 74
  /// Timed out or rate limited: trying again later may work (`EX_TEMPFAIL`).
  case temporary = 75
  /// The server's answer could not be understood (`EX_PROTOCOL`).
  case unreadableResponse = 76
  /// Not logged in, session expired, saved login unreadable, or not allowed (`EX_NOPERM`).
  case notPermitted = 77
  /// The environments file is missing, unreadable or malformed, or the server does not know the
  /// client it names (`EX_CONFIG`).
  case configuration = 78
  /// Interrupted with Ctrl-C: 128 + SIGINT, as shells report it.
  case interrupted = 130

  /// The code for `error`.
  init(for error: any Error) {
    switch error {
    case is UsageError: self = .usage
    case is ConfigurationError: self = .configuration
    case let error where error.isCancellation: self = .interrupted
    default: self.init(category: ErrorMessageProvider.category(of: error))
    }
  }

  /// The code for a family of failure.
  init(category: ErrorCategory) {
    switch category {
    case .offline, .serverUnreachable, .insecureConnection, .untrustedServer, .serverFailure,
      .notAvailableOffline:
      self = .unavailable
    case .timedOut, .rateLimited, .loginIncomplete, .answerReadTooSlowly, .uploadNotResendable:
      self = .temporary
    case .notLoggedIn, .sessionExpired, .savedLoginUnreadable, .forbidden, .wrongCredentials,
      .loginDeclined, .loginNotConfirmed, .clientCertificateRequired, .proxyRefused:
      self = .notPermitted
    case .appMisconfigured: self = .configuration
    case .notFound: self = .notFound
    case .invalidInput: self = .invalidInput
    case .unreadableResponse, .malformedResponse, .responseTooLarge: self = .unreadableResponse
    case .invalidRequest: self = .software
    case .storageFull, .fileNotSaved: self = .cannotCreate
    case .uploadSourceFailed: self = .inputUnreadable
    case .unknown: self = .failure
    }
  }

  /// What the code means, for `--help`.
  var summary: String {
    switch self {
    case .success: "done"
    case .failure: "an unexpected failure"
    case .usage: "the command line was wrong"
    case .invalidInput: "the server refused the input"
    case .notFound: "not found"
    case .unavailable: "offline, server unreachable, insecure or failing"
    case .software: "democli built a request that cannot be sent"
    case .cannotCreate: "the file could not be saved: no space, or not writable"
    case .inputUnreadable: "what was being uploaded could not be read to its end"
    case .temporary: "timed out or rate limited: try again later"
    case .unreadableResponse: "the server's answer could not be understood"
    case .notPermitted: "not logged in, session expired, or not allowed"
    case .configuration: "the environments file is missing or malformed, or its client is refused"
    case .interrupted: "interrupted (Ctrl-C)"
    }
  }
}
