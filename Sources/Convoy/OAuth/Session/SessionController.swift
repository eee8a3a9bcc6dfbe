import Foundation

/// Owns a connection's session and renews its token: once for any number of waiting requests.
///
/// Rules, each tested:
/// - **Single flight**: while a renewal runs, every request that needs one waits for it; none
///   starts another.
/// - **Versions**: a request signed with an older token than the current one is replayed with
///   the current one instead of renewing again.
/// - **Sticky failure**: a refused renewal ends the session and fails every later request with
///   ``ServerConnectionError/sessionExpired(_:)`` until the next login.
/// - **Transient failure** (offline, 5xx): the waiting requests fail, the session stays.
/// - **Independent waiters**: a waiter's cancellation ends only its own wait, never the renewal.
/// - **Rate limit**: more renewals of tokens that were not yet due than configured in the window
///   are a server fault, reported as ``ServerConnectionError/refreshLimitExceeded(_:)`` and never
///   looped. Renewing a due token never counts, so short-lived tokens are never punished.
final class SessionController: Sendable {
  /// Renews a session; set by the connection to send the refresh-token grant. The span is that
  /// of the call that started the renewal, the parent of the renewal's own.
  typealias Renewal = @Sendable (Session, (any CallSpan)?) async throws -> Session

  /// Why a credential could not be given; mapped by callers to errors with their own context.
  enum Refusal: Error, Equatable {
    case notLoggedIn
    case expired
    /// The token endpoint refused the client itself (`invalid_client` and friends): the app's
    /// configuration, which a new login cannot mend, so it is not worded as an expiry.
    case clientRefused(AuthorizationError)
    case refreshLimitExceeded
    case cancelled
    /// The waiter's own deadline passed before the renewal ended; the renewal goes on.
    case timedOut
  }

  private struct State {
    var session: Session?
    var version = 0
    /// Why the session ended, answered to every request until the next login.
    var stickyFailure: Refusal?
    var flight: Flight?
    var renewalDates: [Date] = []
  }

  private final class Flight: Sendable {
    let waiters = Locked<[UUID: CheckedContinuation<AccessToken, any Error>]>([:])
  }

  private let state = Locked(State())
  private let sessions = Broadcast<Session?>(nil, bufferingPolicy: .unbounded)
  private let configuration: AuthenticationConfiguration
  private let store: (any SessionStore)?
  private let renewal = Locked<Renewal?>(nil)
  private let notifier = Locked<(@Sendable (Session?) -> Void)?>(nil)
  private let problemReporter = Locked<(@Sendable (String) -> Void)?>(nil)
  /// The connection's clock: expiry, the refresh margin and the renewal window are read on it.
  private let clock: any ConvoyClock

  init(
    configuration: AuthenticationConfiguration, store: (any SessionStore)?,
    clock: any ConvoyClock = .system
  ) {
    self.configuration = configuration
    self.store = store
    self.clock = clock
  }

  func setRenewal(_ renew: @escaping Renewal) {
    renewal.withLock { $0 = renew }
  }

  /// Sets what announces a change besides the streams (the connection posts a notification).
  func setNotifier(_ notify: @escaping @Sendable (Session?) -> Void) {
    notifier.withLock { $0 = notify }
  }

  /// Sets who hears of problems no caller is waiting for, such as a renewed session that
  /// could not be saved (the connection sends a notice event).
  func setProblemReporter(_ report: @escaping @Sendable (String) -> Void) {
    problemReporter.withLock { $0 = report }
  }

  // A renewal or expiry happens on behalf of whoever waits; a store failure then must not fail
  // them (the session in memory is right), but it must not vanish either.
  private func persist(_ change: () throws(SessionStoreError) -> Void) {
    do {
      try change()
    } catch {
      problemReporter.current?("the session store failed: \(error)")
    }
  }

  // MARK: - Session

  var session: Session? { state.withLock { $0.session } }

  /// Installs `session` (a login) and saves it; clears any sticky failure.
  func install(_ session: Session) throws(SessionStoreError) {
    try store?.saveSession(session)
    publish { state in
      state.session = session
      state.version += 1
      state.stickyFailure = nil
      state.renewalDates = []
    }
  }

  /// Forgets the session (a logout) and removes the saved one.
  func clear() throws(SessionStoreError) {
    publish { state in
      state.session = nil
      state.version += 1
      state.stickyFailure = nil
    }
    try store?.removeSession()
  }

  /// Loads the saved session, if any, and installs it without saving it again.
  func restore() throws(SessionStoreError) -> Session? {
    guard let saved = try store?.loadSession() else { return nil }
    publish { state in
      state.session = saved
      state.version += 1
      state.stickyFailure = nil
    }
    return saved
  }

  /// A stream of every session change, starting with the current session.
  func changes() -> AsyncStream<Session?> {
    sessions.subscribe()
  }

  private func publish(_ change: (inout State) -> Void) {
    let session = state.withLock { state in
      change(&state)
      // Published under the state lock so that concurrent changes reach streams in order.
      sessions.publish(state.session)
      return state.session
    }
    notifier.current?(session)
  }

  // MARK: - Credentials

  /// The token to sign with now, renewed first if it expires within the margin; a wait for the
  /// renewal ends at `deadline` with ``Refusal/timedOut``.
  ///
  /// - Parameter caller: The span of the call that asks, the parent of a renewal it starts.
  func currentToken(until deadline: Date? = nil, for caller: (any CallSpan)?) async throws
    -> AccessToken
  {
    let token: AccessToken = try state.withLock { state in
      if let refusal = state.stickyFailure { throw refusal }
      guard let session = state.session else { throw Refusal.notLoggedIn }
      return session.accessToken
    }
    guard token.expires(within: configuration.refreshMargin, of: clock.now) else { return token }
    return try await renewedToken(replacing: token.value, until: deadline, for: caller)
  }

  /// A token newer than `staleValue`: the current one if someone already renewed, otherwise
  /// the result of the (single) renewal in flight.
  ///
  /// The wait ends at `deadline` (the waiting call's) with ``Refusal/timedOut``, and at the
  /// task's cancellation with ``Refusal/cancelled``; either ends this wait only, never the
  /// renewal, which others may be waiting for.
  ///
  /// - Parameter caller: The span of the call that asks; a renewal this starts is its child.
  func renewedToken(
    replacing staleValue: String, until deadline: Date? = nil, for caller: (any CallSpan)?
  ) async throws -> AccessToken {
    let id = UUID()
    let timer = Locked<ClockTimer?>(nil)
    defer { timer.current?.cancel() }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let waits = join(
          id: id, replacing: staleValue, caller: caller, continuation: continuation)
        guard waits, let deadline else { return }
        let alarm = clock.schedule(after: deadline.timeIntervalSince(clock.now)) { [self] in
          leave(id: id, because: .timedOut)
        }
        timer.withLock { $0 = alarm }
      }
    } onCancel: {
      leave(id: id, because: .cancelled)
    }
  }

  private enum JoinOutcome {
    case current(AccessToken)
    case refused(Refusal)
    case waiting(start: (Session, Int, Flight)?)
  }

  /// - Returns: Whether the caller waits for a renewal (its continuation is not resumed yet).
  @discardableResult
  private func join(
    id: UUID, replacing staleValue: String, caller: (any CallSpan)?,
    continuation: CheckedContinuation<AccessToken, any Error>
  ) -> Bool {
    let outcome: JoinOutcome = state.withLock { state in
      if let refusal = state.stickyFailure { return .refused(refusal) }
      guard let session = state.session else { return .refused(.notLoggedIn) }
      if state.flight == nil {
        if session.accessToken.value != staleValue,
          !session.accessToken.expires(within: configuration.refreshMargin, of: clock.now)
        {
          return .current(session.accessToken)
        }
        // Only renewals of tokens that were not yet due count towards the limit: those are the
        // server rejecting fresh tokens, which can loop. Renewing a token that is due is normal
        // use, however short the lifetime the server chose.
        if !session.accessToken.expires(within: configuration.refreshMargin, of: clock.now) {
          let windowStart = clock.now.addingTimeInterval(-configuration.refreshWindow)
          state.renewalDates.removeAll { $0 < windowStart }
          guard state.renewalDates.count < configuration.maximumRefreshesPerWindow else {
            return .refused(.refreshLimitExceeded)
          }
          state.renewalDates.append(clock.now)
        }
        let flight = Flight()
        state.flight = flight
        flight.waiters.withLock { $0[id] = continuation }
        return .waiting(start: (session, state.version, flight))
      }
      state.flight?.waiters.withLock { $0[id] = continuation }
      return .waiting(start: nil)
    }
    switch outcome {
    case .current(let token):
      continuation.resume(returning: token)
      return false
    case .refused(let refusal):
      continuation.resume(throwing: refusal)
      return false
    case .waiting(let start):
      if let (session, version, flight) = start {
        launch(flight, renewing: session, version: version, for: caller)
      }
      if Task.isCancelled { leave(id: id, because: .cancelled) }
      return true
    }
  }

  /// Ends one waiter's wait; a waiter already answered is left alone.
  private func leave(id: UUID, because refusal: Refusal) {
    let flight = state.withLock { $0.flight }
    let waiter = flight?.waiters.withLock { $0.removeValue(forKey: id) }
    waiter?.resume(throwing: refusal)
  }

  // The renewal runs in its own task so that no waiter's cancellation can stop it. Its span, if
  // any, is a child of the call that started it, though it serves every waiter.
  private func launch(
    _ flight: Flight, renewing session: Session, version: Int, for caller: (any CallSpan)?
  ) {
    let renew = renewal.current
    Task.detached { [self] in
      let result: Result<Session, any Error>
      if let renew {
        do {
          result = .success(try await renew(session, caller))
        } catch {
          result = .failure(error)
        }
      } else {
        result = .failure(Refusal.expired)
      }
      finish(flight, version: version, result: result)
    }
  }

  private func finish(_ flight: Flight, version: Int, result: Result<Session, any Error>) {
    var outcome: Result<AccessToken, any Error>
    switch result {
    case .success(let renewed):
      var current: Session?
      publish { state in
        state.flight = nil
        // A logout or login while renewing wins over the renewal's result.
        if state.version == version {
          state.session = renewed
          state.version += 1
        }
        current = state.session
      }
      if current == renewed {
        persist { () throws(SessionStoreError) in try store?.saveSession(renewed) }
      }
      outcome = current.map { .success($0.accessToken) } ?? .failure(Refusal.notLoggedIn)
    case .failure(let error) where Self.isRefusal(error):
      let refusal = Self.refusal(for: error)
      outcome = .failure(refusal)
      publish { state in
        state.flight = nil
        guard state.version == version else { return }
        state.session = nil
        state.version += 1
        state.stickyFailure = refusal
      }
      persist { () throws(SessionStoreError) in try store?.removeSession() }
    case .failure(let error):
      outcome = .failure(error)
      state.withLock { $0.flight = nil }
    }
    let waiters = flight.waiters.withLock { waiters in
      defer { waiters = [:] }
      return Array(waiters.values)
    }
    for waiter in waiters { waiter.resume(with: outcome) }
  }

  /// What a refused renewal tells the requests: the client's own refusal when the server
  /// refused the client, an expired session otherwise.
  private static func refusal(for error: any Error) -> Refusal {
    if let error = error as? AuthorizationError, error.category == .appMisconfigured {
      return .clientRefused(error)
    }
    return .expired
  }

  /// Whether a failed renewal means the grant is gone for good (RFC 6749 §5.2: `invalid_grant`
  /// and friends come back as 400 or 401), rather than a passing fault.
  static func isRefusal(_ error: any Error) -> Bool {
    if let refusal = error as? Refusal { return refusal == .expired }
    if let error = error as? AuthorizationError {
      return [400, 401].contains(error.statusCode ?? 0)
    }
    guard let error = error as? ServerConnectionError else { return false }
    switch error {
    case .httpError, .descriptiveServerError: return [400, 401].contains(error.statusCode ?? 0)
    default: return false
    }
  }
}

/// Keys of the `userInfo` of `Notification.Name.convoySessionDidChange`.
public enum SessionChange {
  /// A `Bool`: whether a session is present after the change.
  public static let loggedInKey = "loggedIn"
}

extension Notification.Name {
  /// Posted on `NotificationCenter.default` after a connection's session changed: login,
  /// renewal, logout or expiry. The `object` is the ``ServerConnection``; the `userInfo` says
  /// whether a session is present (``SessionChange/loggedInKey``).
  public static let convoySessionDidChange = Notification.Name("ConvoySessionDidChange")
}
