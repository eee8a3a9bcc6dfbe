import Foundation

/// One entry of a ``JournalJobStore``'s journal: what happened to a job, in the order it
/// happened. Replayed in order, the entries give every job's state after a restart.
enum DurableJobRecord: Codable {
  /// The job was accepted: from now on it will run, in this run of the app or a later one.
  case accepted(DurableJob)
  /// The step at `step` succeeded: after a restart the job goes on with the next.
  case stepFinished(job: UUID, step: Int)
  /// An attempt at `step` failed transiently; `attempts` have been made so far.
  case attemptFailed(job: UUID, step: Int, attempts: Int)
  /// The step at `step` saved its own progress.
  case checkpoint(job: UUID, step: Int, state: Data)
  /// The job ended.
  case finished(DurableJobOutcome)
  /// The app has seen the job's outcome: it need not be kept.
  case forgotten(job: UUID)
}
