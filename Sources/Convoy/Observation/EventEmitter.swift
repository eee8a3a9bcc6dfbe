import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Hands the events of one call or job to the connection's observers, each stamped with what
/// the template says about its subject (ids, method, job name).
///
/// With no observers it does nothing at all, so unobserved work pays for no event.
struct EventEmitter: Sendable {
  let observers: [any EventObserver]
  private let template: ConvoyEvent

  private static let lastID = Locked<UInt64>(0)

  /// A fresh identity for a call or job, unique within the process.
  static func nextID() -> UInt64 {
    lastID.withLock { id in
      id += 1
      return id
    }
  }

  /// An emitter for one call: a new request id, the job's id if the call belongs to one.
  static func call(observers: [any EventObserver], jobID: UInt64?, method: HTTPMethod)
    -> EventEmitter
  {
    EventEmitter(
      observers: observers,
      template: ConvoyEvent(
        name: .requestCreated, requestID: observers.isEmpty ? 0 : nextID(), jobID: jobID,
        method: method.rawValue))
  }

  /// An emitter for one job.
  static func job(observers: [any EventObserver], jobID: UInt64, name: String) -> EventEmitter {
    EventEmitter(
      observers: observers, template: ConvoyEvent(name: .jobStarted, jobID: jobID, jobName: name))
  }

  var isObserved: Bool { !observers.isEmpty }

  /// Sends a notice that is about no one call or job.
  static func notice(to observers: [any EventObserver], _ text: String) {
    EventEmitter(observers: observers, template: ConvoyEvent(name: .notice)).emit(.notice) {
      $0.reason = text
    }
  }

  /// The job these events are about, or that the call belongs to.
  var jobID: UInt64? { template.jobID }

  /// Sends an event named `name` about `url`, whose other fields `fill` sets.
  func emit(
    _ name: ConvoyEvent.Name, url: URL? = nil, _ fill: (inout ConvoyEvent) -> Void = { _ in }
  ) {
    guard isObserved else { return }
    var event = template
    event.name = name
    event.date = Date()
    event.url = url?.absoluteString
    fill(&event)
    for observer in observers { observer.receive(event) }
  }

  /// Sends the one event that ends a call or job: finished, cancelled or failed.
  func emitEnd(
    _ error: (any Error)?, url: URL? = nil, startedAt start: Date, status: Int? = nil
  ) {
    let isJob = template.requestID == nil
    let duration = Date().timeIntervalSince(start)
    guard let error else {
      emit(isJob ? .jobFinished : .requestFinished, url: url) {
        $0.duration = duration
        $0.status = status
      }
      return
    }
    if error.isCancellation {
      emit(isJob ? .jobCancelled : .requestCancelled, url: url) { $0.duration = duration }
      return
    }
    emit(isJob ? .jobFailed : .requestFailed, url: url) {
      $0.duration = duration
      $0.status = (error as? any StatusCarryingError)?.statusCode
      $0.reason = String(describing: error)
      $0.errorCategory = ErrorMessageProvider.category(of: error)
    }
  }
}
