import Foundation

/// Tells a transport to stop one exchange before its end: the call's deadline passed, its task
/// was cancelled, or its `JobToken` was.
///
/// Convoy gives every ``TransportRequest`` it sends a cancellation of the call's own, and trips
/// it for every reason a call ends early, so a transport needs to watch only this (and, when it
/// is called directly, its task's cancellation). A transport registers what stops its transfer
/// with ``whenCancelled(_:)`` and then ends ``HTTPTransport/send(_:)`` at once with
/// ``TransportFailure/Kind/cancelled``.
///
/// ```swift
/// let cancellation = TransferCancellation()
/// var request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://example.com")!))
/// request.cancellation = cancellation
/// cancellation.cancel()  // a transfer of `request` stops, or never starts
/// ```
public final class TransferCancellation: Sendable {
  private struct State {
    var isCancelled = false
    /// Set once the exchange that owns it is over (or from the start for ``none``): nothing
    /// waits any more, so nothing is kept.
    var isRetired = false
    /// The first action kept apart: a transfer usually registers one, and an array would cost an
    /// allocation per call.
    var first: (@Sendable () -> Void)?
    var more: [@Sendable () -> Void] = []
  }

  private let state: Locked<State>

  /// Creates a cancellation that has not been tripped.
  public init() {
    state = Locked(State())
  }

  private init(retired: Void) {
    state = Locked(State(isRetired: true))
  }

  /// A cancellation that is never tripped and keeps nothing: the default of a
  /// ``TransportRequest`` made outside Convoy's calls, which only its task's cancellation stops.
  /// ``cancel()`` does nothing to it.
  public static let none = TransferCancellation(retired: ())

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// Runs `action` once, on the thread that cancels: at once, on this thread, when it was
  /// cancelled already. `action` must return quickly (stop a transfer, resume a waiter).
  public func whenCancelled(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      guard !state.isCancelled else { return true }
      guard !state.isRetired else { return false }
      if state.first == nil {
        state.first = action
      } else {
        state.more.append(action)
      }
      return false
    }
    if runNow { action() }
  }

  /// Stops every transfer that registered, and any that registers later. Harmless when called
  /// again, and once the exchange that owns it is over.
  public func cancel() {
    let (first, more) = state.withLock {
      state -> ((@Sendable () -> Void)?, [@Sendable () -> Void]) in
      guard !state.isCancelled, !state.isRetired else { return (nil, []) }
      state.isCancelled = true
      defer { (state.first, state.more) = (nil, []) }
      return (state.first, state.more)
    }
    first?()
    for action in more { action() }
  }

  /// Forgets what registered, once the exchange that owns it is over: a stream that lives on
  /// must not be kept alive, nor be stopped, by its exchange's cancellation.
  func retire() {
    state.withLock { state in
      state.isRetired = true
      (state.first, state.more) = (nil, [])
    }
  }
}
