import Foundation

extension ConvoyEvent {
  /// Which job an event is about; the same for every event of one job.
  public struct JobIdentity: Sendable, Hashable {
    /// The job's number, unique within the process; the calls it makes carry it as
    /// ``CallIdentity/jobID``.
    public let id: UInt64
    /// The job's type name, e.g. `LoginJob`.
    public let name: String

    /// Names job `id` of type `name`.
    public init(id: UInt64, name: String) {
      self.id = id
      self.name = name
    }
  }

  /// A job began (`job.started`).
  public struct JobStarted: Sendable, Hashable {
    /// The job.
    public let job: JobIdentity

    /// Describes the start of `job`.
    public init(job: JobIdentity) {
      self.job = job
    }
  }

  /// A job's progress changed (`job.progress`).
  public struct JobProgressChanged: Sendable, Hashable {
    /// The job.
    public let job: JobIdentity
    /// The units of work done.
    public let completedUnits: Int
    /// The units of work known so far.
    public let totalUnits: Int

    /// Describes `job` having done `completedUnits` of `totalUnits`.
    public init(job: JobIdentity, completedUnits: Int, totalUnits: Int) {
      self.job = job
      self.completedUnits = completedUnits
      self.totalUnits = totalUnits
    }
  }

  /// A job produced its output (`job.finished`).
  public struct JobFinished: Sendable, Hashable {
    /// The job.
    public let job: JobIdentity
    /// Seconds the whole job took.
    public let duration: TimeInterval

    /// Describes `job` finishing after `duration` seconds.
    public init(job: JobIdentity, duration: TimeInterval) {
      self.job = job
      self.duration = duration
    }
  }

  /// A job failed (`job.failed`).
  public struct JobFailed: Sendable, Hashable {
    /// The job.
    public let job: JobIdentity
    /// The status of the answer that failed the job, when an answer did.
    public let status: Int?
    /// The failure's developer description, redacted.
    public let reason: String
    /// The failure's family, as ``ErrorMessageProvider`` sorts it.
    public let errorCategory: ErrorCategory
    /// Seconds the whole job took.
    public let duration: TimeInterval

    /// Describes `job` failing; redacts the reason.
    public init(
      job: JobIdentity, status: Int?, reason: String, errorCategory: ErrorCategory,
      duration: TimeInterval
    ) {
      self.job = job
      self.status = status
      self.reason = SecretRedactor.redact(reason)
      self.errorCategory = errorCategory
      self.duration = duration
    }
  }

  /// A job was cancelled (`job.cancelled`).
  public struct JobCancelled: Sendable, Hashable {
    /// The job.
    public let job: JobIdentity
    /// Seconds from the job's start to its cancellation.
    public let duration: TimeInterval

    /// Describes `job` being cancelled after `duration` seconds.
    public init(job: JobIdentity, duration: TimeInterval) {
      self.job = job
      self.duration = duration
    }
  }
}
