import Foundation

/// Hands the events of one job to the connection's observers, each naming the job.
struct JobEventEmitter: Sendable {
  let observers: [any EventObserver]
  /// The job every event is about.
  let job: ConvoyEvent.JobIdentity

  /// An emitter for a job of type `name`, with a fresh id.
  init(observers: [any EventObserver], name: String) {
    self.observers = observers
    job = ConvoyEvent.JobIdentity(id: EventEmitter.nextID(), name: name)
  }

  /// The job's id, which the calls it makes carry.
  var jobID: UInt64 { job.id }

  /// Sends an event of `kind`, made only when someone observes.
  func emit(_ kind: @autoclosure () -> ConvoyEvent.Kind) {
    observers.send(kind())
  }

  /// Sends the event that starts the job.
  func emitStarted() {
    emit(.jobStarted(.init(job: job)))
  }

  /// Sends the one event that ends the job: finished, cancelled or failed.
  func emitEnd(_ error: (any Error)?, startedAt start: Date) {
    let duration = Date().timeIntervalSince(start)
    guard let error else {
      emit(.jobFinished(.init(job: job, duration: duration)))
      return
    }
    guard !error.isCancellation else {
      emit(.jobCancelled(.init(job: job, duration: duration)))
      return
    }
    let failure = EventFailure(error)
    emit(
      .jobFailed(
        .init(
          job: job, status: failure.status, reason: failure.reason,
          errorCategory: failure.category, duration: duration)))
  }
}
