/// How much a logger writes, from everything to failures only.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// Adapted headers and every decision.
  case debug
  /// Calls and jobs starting and ending, answers received.
  case info
  /// Retries, notices and the network's comings and goings.
  case warning
  /// Failures.
  case error

  /// Orders levels from `debug` to `error`.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The level an event is logged at.
  public init(_ name: ConvoyEvent.Name) {
    switch name {
    case .requestAdapted, .decisionTaken, .jobProgress, .requestSent, .webSocketMessage:
      self = .debug
    case .requestCreated, .responseReceived, .requestFinished, .requestCancelled, .jobStarted,
      .jobFinished, .jobCancelled, .webSocketOpened, .webSocketClosed, .durableJob:
      self = .info
    case .requestRetried, .streamReconnecting, .notice, .connectivityChanged,
      .requestWaitingForConnectivity, .journalRepaired:
      self = .warning
    case .requestFailed, .jobFailed: self = .error
    }
  }
}
