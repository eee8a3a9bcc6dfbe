import Foundation

/// How a call lives with the network going away: the one place, for every transport, that
/// reads the connection's ``ConnectivityMonitor``.
///
/// - None of this applies to a call to this machine (`localhost`, `127.0.0.0/8`, `::1`), which
///   needs no network: a refused connection there is a refusal, offline or not.
/// - A connect failure while the monitor says offline is reported as offline
///   (``TransportFailure/Kind/notConnectedToInternet``), whichever transport saw it: libcurl says
///   "couldn't connect", URLSession on Linux "cannot connect to host", for the same fault.
/// - A call that waits for connectivity waits, before an attempt, while the monitor says
///   offline; and after an attempt failed offline, its retry waits for the network instead of a
///   back-off timer. Both waits end at the call's deadline (the call then fails offline) or when
///   the call is cancelled (a task's cancellation or a job's token).
/// - A call that does not wait fails at once when an attempt fails offline: retrying while the
///   monitor says offline would fail the same way.
extension CallPipeline {
  /// The connection's monitor when it says offline and `url` needs the network to be reached
  /// (it is not this machine); `nil` otherwise. The URL is only made when the monitor says
  /// offline.
  func offlineMonitor(for url: @autoclosure () -> URL?) -> (any ConnectivityMonitor)? {
    guard let connectivity, connectivity.connectivity.blocksCalls else { return nil }
    guard let url = url(), URLOrigin(url)?.isLoopback != true else { return nil }
    return connectivity
  }

  /// `failure` as a call reports it while the monitor says offline: one that shows the request
  /// never left the client (``RetryPolicy/unsentFailures``) is an offline one.
  static func offlineAware(_ failure: TransportFailure) -> TransportFailure {
    guard failure.kind != .notConnectedToInternet,
      RetryPolicy.unsentFailures.contains(failure.kind)
    else { return failure }
    return TransportFailure(kind: .notConnectedToInternet, detail: failure.detail)
  }

  /// Whether an attempt that failed while offline (`reported`, reported as `failure`) is sent
  /// again once the network returns. One that never left the client is, always; any other
  /// (a dropped connection, a timeout) only when the retry policy would retry it, whatever its
  /// back-off (the wait for the network then counts as one retry). Either way no more than
  /// ``maximumAttempts`` plus the policy's retries are made.
  func retriesWhenOnline(
    after reported: TransportFailure, as failure: TransportFailure,
    context: inout RequestContext
  ) -> Bool {
    guard context.attempt < Self.maximumAttempts + context.retryPolicy.maximumRetries else {
      return false
    }
    if RetryPolicy.unsentFailures.contains(reported.kind), context.isBodyReplayable {
      return true
    }
    // The policy asked with no back-off: the network's return, not a timer, sets the time.
    var untimed = context.retryPolicy
    untimed.baseDelay = 0
    guard
      untimed.delay(after: .failure(failure), context: context, now: configuration.clock.now)
        != nil
    else { return false }
    context.retries += 1
    return true
  }

  /// Waits until `monitor` no longer says offline, before attempt `attempt` of `request`.
  ///
  /// - Throws: An offline ``ServerConnectionError/transportFailed(_:_:)`` when the call's
  ///   deadline passes first, ``ServerConnectionError/cancelled`` when the call is cancelled.
  nonisolated(nonsending) func waitForConnectivity<Request: RequestDescribing>(
    _ monitor: any ConnectivityMonitor, before attempt: Int, of request: Request,
    context: RequestContext, events: EventEmitter
  ) async throws(ServerConnectionError) {
    let offline = ServerConnectionError.transportFailed(
      TransportFailure(
        kind: .notConnectedToInternet, detail: "no network before the call's deadline"),
      context.errorContext())
    let timeLeft = context.deadline.timeIntervalSince(configuration.clock.now)
    guard timeLeft > 0 else { throw offline }
    events.emit(
      .requestWaitingForConnectivity(
        .init(
          call: events.call, url: try? configuration.url(path: request.path), attempt: attempt,
          timeLeft: timeLeft)))
    do {
      try await DeadlineRace.run(
        until: context.deadline, on: configuration.clock, timedOut: offline
      ) {
        // The updates ended: the wait's task was cancelled, or the monitor stopped.
        guard await monitor.waitUntilOnline() else { throw ServerConnectionError.cancelled }
      }
    } catch let error as ServerConnectionError {
      throw error
    } catch {
      throw .cancelled
    }
  }
}
