import Foundation

/// A piece of work made of one or more requests, with a typed output: a login, a screen's data.
///
/// A job builds its root operation from the connection it runs on; the connection runs it,
/// delivers the typed output once, and returns a ``JobToken`` that cancels everything the job
/// started.
///
/// ```swift
/// struct AvatarJob: Job {
///   func makeOperation(on connection: ServerConnection) -> ResultOperation<Data> {
///     connection.operation(for: ProfileRequest())
///       .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
///       .map(\.data)
///   }
/// }
///
/// let token = connection.run(AvatarJob()) { result in show(result) }
/// ```
public protocol Job: Sendable {
  /// What the job produces; the completion receives it as `Result<Output, any Error>`.
  associatedtype Output: Sendable

  /// Builds the operation whose output is the job's, each time the job runs.
  func makeOperation(on connection: ServerConnection) -> ResultOperation<Output>

  /// The longest the whole job may take; when it passes, the job is cancelled and completes with
  /// ``ServerConnectionError/timedOut(_:)``. Default: `nil`, no deadline beyond each request's.
  var timeout: TimeInterval? { get }

  /// What the job ends with when its ``timeout`` passed, worded for what the deadline meant.
  /// Default: ``ServerConnectionError/timedOut(_:)``.
  var timeoutError: any Error { get }
}

extension Job {
  /// No deadline for the whole job.
  public var timeout: TimeInterval? { nil }

  /// ``ServerConnectionError/timedOut(_:)``: the job took too long.
  public var timeoutError: any Error { ServerConnectionError.timedOut(ErrorContext()) }
}
