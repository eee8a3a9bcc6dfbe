import Foundation

extension ConvoyEvent {
  /// A durable job moved on (`durable.job`): accepted, taken up again after a restart, a step
  /// done, waiting to try again, or ended.
  public struct DurableJobChanged: Sendable, Hashable {
    /// What happened to the job.
    public enum Change: String, Sendable, Hashable {
      /// The job was written to the journal: it will run.
      case accepted
      /// The job, left unfinished by an earlier run of the app, is taken up again.
      case resumed
      /// A step succeeded.
      case stepFinished = "step_finished"
      /// A step failed for now; it is tried again after ``DurableJobChanged/delay``.
      case retrying
      /// A step waits for the network to come back before it is sent.
      case waitingForConnectivity = "waiting_for_connectivity"
      /// An upload goes on from where the server has it (``DurableJobChanged/uploadOffset``),
      /// after a restart or a dropped connection.
      case uploadResumed = "upload_resumed"
      /// An upload starts again from its first byte: the server no longer has the part sent
      /// before, or cannot say how much it has.
      case uploadRestarted = "upload_restarted"
      /// Every step succeeded.
      case succeeded
      /// A step failed for good.
      case failed
      /// The job's expiry date passed before it finished.
      case expired
    }

    /// The job's identity, the same in every run of the app.
    public let jobID: UUID
    /// What happened.
    public let change: Change
    /// The step it happened to, counted from 0, when it is about one.
    public let step: Int?
    /// How many attempts the step has had, for ``Change/retrying`` and ``Change/failed``.
    public let attempts: Int?
    /// The wait before the next attempt, for ``Change/retrying``.
    public let delay: TimeInterval?
    /// The failure's category, for ``Change/retrying`` and ``Change/failed``.
    public let errorCategory: ErrorCategory?
    /// The bytes of the upload the server has, for ``Change/uploadResumed``.
    public let uploadOffset: Int64?

    /// Describes a change of a durable job.
    public init(
      jobID: UUID, change: Change, step: Int? = nil, attempts: Int? = nil,
      delay: TimeInterval? = nil, errorCategory: ErrorCategory? = nil, uploadOffset: Int64? = nil
    ) {
      self.jobID = jobID
      self.change = change
      self.step = step
      self.attempts = attempts
      self.delay = delay
      self.errorCategory = errorCategory
      self.uploadOffset = uploadOffset
    }
  }

  /// A durable job queue's journal was damaged and repaired when it was opened
  /// (`durable.journal`): records torn by a crash or damaged on disk were dropped. A record torn
  /// at the end is a write the crash interrupted, whose job was never reported accepted.
  public struct JournalRepaired: Sendable, Hashable {
    /// The journal's file name (not its folder, which may name the user).
    public let file: String
    /// How many bytes were dropped.
    public let droppedBytes: Int
    /// Whether the damage was only at the end of the file.
    public let onlyAtTheEnd: Bool
    /// Records that were whole but could not be read as any record this version knows.
    public let unreadableRecords: Int

    /// Describes a repair.
    public init(file: String, droppedBytes: Int, onlyAtTheEnd: Bool, unreadableRecords: Int) {
      self.file = file
      self.droppedBytes = droppedBytes
      self.onlyAtTheEnd = onlyAtTheEnd
      self.unreadableRecords = unreadableRecords
    }
  }
}
