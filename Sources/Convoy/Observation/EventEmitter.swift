import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Hands the events of one call to the connection's observers, each naming the call, and ends
/// the call's span with its last event.
///
/// With no observers it does nothing at all: an event is an autoclosure, so unobserved calls
/// build, redact and send no event.
struct EventEmitter: Sendable {
  let observers: [any EventObserver]
  /// The call every event is about.
  let call: ConvoyEvent.CallIdentity
  /// The call's metrics, which its last event carries.
  var metrics = CallMetricsRecorder()
  /// The call's span, when its connection traces calls (``CallTracing``): ended as the call
  /// ends, by the same functions that send the call's last event.
  let span: (any CallSpan)?

  private static let lastID = Locked<UInt64>(0)

  /// A fresh identity for a call or job, unique within the process.
  static func nextID() -> UInt64 {
    lastID.withLock { id in
      id += 1
      return id
    }
  }

  /// An emitter for one call: a new call id, the job's id if the call belongs to one, and the
  /// call's span if it has one.
  static func call(
    observers: [any EventObserver], jobID: UInt64?, method: HTTPMethod,
    metrics: CallMetricsRecorder? = nil, span: (any CallSpan)? = nil
  ) -> EventEmitter {
    EventEmitter(
      observers: observers,
      call: ConvoyEvent.CallIdentity(
        id: observers.isEmpty ? 0 : nextID(), jobID: jobID, method: method),
      metrics: metrics?.claim() ?? CallMetricsRecorder(), span: span)
  }

  var isObserved: Bool { !observers.isEmpty }

  /// Sends a notice that is about no one call or job.
  static func notice(to observers: [any EventObserver], _ text: String) {
    observers.send(.notice(ConvoyEvent.Notice(text)))
  }

  /// Sends an event of `kind`, made only when someone observes.
  func emit(_ kind: @autoclosure () -> ConvoyEvent.Kind) {
    observers.send(kind())
  }

  /// Sends the event that ends a call with its value, and ends its span.
  func emitFinished(url: URL?, startedAt start: Date, status: Int) {
    span?.finished(status: status, metrics: metrics.snapshot())
    emit(
      .requestFinished(
        .init(
          call: call, url: url, status: status, duration: Date().timeIntervalSince(start),
          metrics: metrics.snapshot())))
  }

  /// Sends the event that ends a call with `error`: cancelled or failed; and ends its span.
  func emitEnd(_ error: any Error, url: URL?, startedAt start: Date) {
    span?.failed(error, metrics: metrics.snapshot())
    guard isObserved else { return }
    let duration = Date().timeIntervalSince(start)
    guard !error.isCancellation else {
      emit(
        .requestCancelled(
          .init(call: call, url: url, duration: duration, metrics: metrics.snapshot())))
      return
    }
    let failure = EventFailure(error)
    emit(
      .requestFailed(
        .init(
          call: call, url: url, status: failure.status, reason: failure.reason,
          errorCategory: failure.category, duration: duration, metrics: metrics.snapshot())))
  }
}

/// What the events that end a call or job say about its error.
struct EventFailure {
  let status: Int?
  let reason: String
  let category: ErrorCategory

  init(_ error: any Error) {
    status = (error as? any StatusCarryingError)?.statusCode
    reason = String(describing: error)
    category = ErrorMessageProvider.category(of: error)
  }
}
