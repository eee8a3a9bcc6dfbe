import Foundation

/// How a ``DurableJob`` ended: kept by its ``DurableJobQueue``, also across runs of the app,
/// until ``DurableJobQueue/forgetOutcome(of:)``.
public struct DurableJobOutcome: Sendable, Hashable, Codable {
  /// Why a job ended.
  public enum Ending: Sendable, Hashable, Codable {
    /// Every step succeeded.
    case succeeded
    /// A step failed for good: an answer the request does not accept, or a transient failure
    /// that outlasted ``DurableJobConstraints/maximumAttempts``. `message` is the failure's
    /// ``ErrorMessageProvider`` sentence.
    case failed(step: Int, category: ErrorCategory, message: String)
    /// ``DurableJobConstraints/expiresAt`` passed before the job finished.
    case expired
  }

  /// The job.
  public let jobID: UUID
  /// How it ended.
  public let ending: Ending
  /// When it ended.
  public let finishedAt: Date

  /// An outcome: what a ``DurableJobQueue`` hands its store, and a store's tests make.
  public init(jobID: UUID, ending: Ending, finishedAt: Date) {
    self.jobID = jobID
    self.ending = ending
    self.finishedAt = finishedAt
  }
}
