import Foundation

/// Where a ``DurableJobQueue`` keeps its jobs, their progress and their outcomes.
///
/// The queue's default is a journal on disk for one process (``JournalJobStore``). A store
/// shared by several processes, such as a database table, gives each process a *claim* on the
/// job it runs: a lease that runs out when the process dies, so that another takes the job up
/// from its last finished step. Every write about a claimed job says which claim it comes from,
/// and a store refuses writes from a claim that is no longer the job's
/// (``DurableJobQueueError/Kind/claimLost``).
///
/// Every method returns once what it wrote is durable: a job ``accept(_:)`` returned for is not
/// lost by a crash a moment later.
public protocol DurableJobStore: Sendable {
  /// Opens the store and says what it found and repaired. Called once, by
  /// ``DurableJobQueue/start()``.
  func open() async throws -> DurableJobStoreOpening

  /// Keeps `jobs`, unfinished and in their order, after the jobs kept before them: all of them
  /// or, when it throws, none.
  ///
  /// - Throws: ``DurableJobQueueError`` (``DurableJobQueueError/Kind/duplicateJob(_:)`` when a
  ///   job with the identity of one of them is kept already, or two of them share one).
  func accept(_ jobs: [DurableJob]) async throws

  /// Claims the first unfinished job nobody holds, for `lease` seconds; `nil` when there is
  /// none.
  func claimNextJob(for lease: TimeInterval) async throws -> DurableJobClaim?

  /// Extends `claim` by `lease` seconds from now.
  func renew(_ claim: DurableJobClaim, for lease: TimeInterval) async throws

  /// Records how far the claimed job got.
  func record(_ progress: DurableJobProgress, of claim: DurableJobClaim) async throws

  /// Ends the claimed job with `outcome`, kept until ``forgetOutcome(of:)``.
  func finish(_ claim: DurableJobClaim, with outcome: DurableJobOutcome) async throws

  /// Lets go of `claim` without finishing its job (the queue stops): the job is the next to
  /// run again.
  func release(_ claim: DurableJobClaim) async

  /// The outcomes kept, in the order their jobs ended.
  func outcomes() async throws -> [DurableJobOutcome]

  /// Drops the outcome of job `id`.
  func forgetOutcome(of id: UUID) async throws

  /// The unfinished jobs, in the order they were accepted.
  func unfinishedJobs() async throws -> [DurableJob]

  /// For a store other processes share, how often an idle queue asks it for new jobs. `nil` for
  /// a store only this process uses: the queue then waits for its own ``DurableJobQueue/add(_:)``,
  /// and its claims never run out, so they are not renewed.
  var newJobsCheckInterval: TimeInterval? { get }
}

/// A job a ``DurableJobStore`` handed to one process to run, and how far it got before.
public struct DurableJobClaim: Sendable, Hashable {
  /// The job.
  public let job: DurableJob
  /// The first step not finished yet.
  public let nextStep: Int
  /// The attempts made at that step so far.
  public let attempts: Int
  /// What that step saved of its own progress (``DurableJobProgress/checkpoint(step:state:)``),
  /// such as where its upload is: it goes on from there.
  public let checkpoint: Data?
  /// Tells this claim from a later one on the same job, after a lease ran out.
  public let token: UUID

  /// A claim on `job`.
  public init(
    job: DurableJob, nextStep: Int, attempts: Int, checkpoint: Data? = nil, token: UUID = UUID()
  ) {
    self.job = job
    self.nextStep = nextStep
    self.attempts = attempts
    self.checkpoint = checkpoint
    self.token = token
  }
}

/// How far a claimed job got.
public enum DurableJobProgress: Sendable, Hashable, Codable {
  /// The step at this index succeeded.
  case stepFinished(Int)
  /// An attempt at `step` failed for now; `attempts` were made so far.
  case attemptFailed(step: Int, attempts: Int)
  /// The step at `step` saved where it is, to go on from there after a restart (an upload's
  /// address on the server). Kept until the step finishes.
  case checkpoint(step: Int, state: Data)
}

/// What a ``DurableJobStore`` found when it opened.
public struct DurableJobStoreOpening: Sendable, Hashable {
  /// An unfinished job an earlier run left, and the step it goes on from.
  public struct ResumedJob: Sendable, Hashable {
    /// The job's identity.
    public let id: UUID
    /// The first step not finished yet.
    public let nextStep: Int

    /// A job `id` that goes on from `nextStep`.
    public init(id: UUID, nextStep: Int) {
      self.id = id
      self.nextStep = nextStep
    }
  }

  /// The unfinished jobs, in the order they were accepted.
  public var resumed: [ResumedJob]
  /// The damage repaired on the way, if any.
  public var repair: ConvoyEvent.JournalRepaired?

  /// An opening that found `resumed` jobs and repaired `repair`.
  public init(resumed: [ResumedJob] = [], repair: ConvoyEvent.JournalRepaired? = nil) {
    self.resumed = resumed
    self.repair = repair
  }
}
