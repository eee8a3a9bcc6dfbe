import Convoy
import Foundation
import Logging
import PostgresNIO

/// A ``DurableJobStore`` in a PostgreSQL table, shared by every process that opens it: an app
/// that runs on several machines drains one ``DurableJobQueue`` from all of them.
///
/// ```swift
/// let store = try PostgresJobStore(client: client, tableName: "shop_jobs")
/// let queue = DurableJobQueue(connection: connection, store: store, claimDuration: 30)
/// ```
///
/// A process takes a job with a *claim*: one statement picks the oldest unfinished job no live
/// claim holds (`FOR UPDATE SKIP LOCKED`, so that two processes never wait for, nor take, the
/// same row) and gives it a fresh token and an expiry of `now()` plus the lease, by the
/// server's clock, so that the machines' clocks never have to agree. A process that dies stops
/// renewing; once its claim expires, another takes the job up from its last finished step,
/// with the same idempotency keys. Every later write about the job names the claim's token, and
/// one that no longer matches throws ``DurableJobQueueError/Kind/claimLost``.
///
/// The app owns the `PostgresClient`: it runs it (`client.run()`, in a task or a
/// `ServiceGroup`) for as long as the queue runs. Every value goes to the server as a bound
/// parameter; only the table's name is written into the statements, once the initializer
/// checked that it is a plain identifier. The store never logs.
public final class PostgresJobStore: DurableJobStore {
  /// The table the jobs are kept in; ``open()`` creates it when it is missing.
  public let tableName: String
  /// How often an idle queue asks the table for jobs other processes added.
  public let newJobsCheckInterval: TimeInterval?
  private let client: PostgresClient
  /// `withTransaction` asks for a logger; the store's failures reach the app as thrown errors
  /// and queue notices instead.
  private let silentLogger = Logger(label: "convoy.postgres-job-store") { _ in
    SwiftLogNoOpLogHandler()
  }

  /// A table name that is not a plain lowercase SQL identifier.
  public struct InvalidTableName: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name refused.
    public let name: String
    /// Why, for logs.
    public var description: String {
      "“\(name)” is not a table name PostgresJobStore accepts: 1 to \(maximumTableNameLength) of "
        + "a-z, 0-9 and _, not starting with a digit"
    }
  }

  /// The longest table name: PostgreSQL cuts identifiers at 63 bytes, and the names it derives
  /// (`<table>_accepted_order_seq`, `<table>_unfinished`) must stay whole.
  public static let maximumTableNameLength = 40

  /// A store in the table `tableName` of the database `client` connects to.
  ///
  /// - Parameters:
  ///   - client: The connection pool; the app runs it while the queue runs.
  ///   - tableName: The jobs' table: lowercase letters, digits and `_`, so that it is written
  ///     into the statements as it is, with nothing to quote or escape.
  ///   - newJobsCheckInterval: How often an idle queue looks for jobs other processes added, in
  ///     seconds: a job added elsewhere waits up to this long.
  /// - Throws: ``InvalidTableName`` when `tableName` is not a plain identifier.
  public init(
    client: PostgresClient, tableName: String = "convoy_durable_jobs",
    newJobsCheckInterval: TimeInterval = 1
  ) throws {
    guard Self.isPlainIdentifier(tableName) else { throw InvalidTableName(name: tableName) }
    self.client = client
    self.tableName = tableName
    self.newJobsCheckInterval = newJobsCheckInterval
  }

  /// Creates the table when it is missing, and reports the unfinished jobs no live claim holds:
  /// those a process that stopped or died left, and those not started yet.
  ///
  /// Processes that open the store at the same moment take turns (an advisory lock), since two
  /// concurrent `CREATE TABLE IF NOT EXISTS` can both try to create it.
  public func open() async throws -> DurableJobStoreOpening {
    let table = tableName
    let logger = silentLogger
    return try await storage {
      try await client.withTransaction(logger: logger) { connection in
        try await connection.query(
          "SELECT pg_advisory_xact_lock(hashtext(\("convoy-durable-jobs:" + table)))",
          logger: logger)
        try await connection.query(Self.createTable(table), logger: logger)
        try await connection.query(Self.createIndex(table), logger: logger)
        let rows = try await connection.query(
          """
          SELECT id, next_step FROM \(unescaped: table)
          WHERE outcome IS NULL AND (claim_token IS NULL OR claim_expires_at <= now())
          ORDER BY accepted_order
          """, logger: logger)
        var resumed: [DurableJobStoreOpening.ResumedJob] = []
        for try await (id, nextStep) in rows.decode((UUID, Int).self) {
          resumed.append(.init(id: id, nextStep: nextStep))
        }
        return DurableJobStoreOpening(resumed: resumed)
      }
    }
  }

  /// Inserts the jobs, in one transaction when there are several; a row with the identity of
  /// one of them already there refuses them all.
  ///
  /// - Throws: ``DurableJobQueueError/Kind/duplicateJob(_:)`` when the table holds one of the
  ///   jobs already, finished or not (until its outcome is forgotten),
  ///   ``DurableJobQueueError/Kind/storage`` when the server fails.
  public func accept(_ jobs: [DurableJob]) async throws {
    let rows = try jobs.map { (id: $0.id, job: try encode($0)) }
    if let single = rows.first, rows.count == 1 {
      let inserted = try await storage {
        try await client.query(insert(single.id, single.job)).collect()
      }
      guard !inserted.isEmpty else { throw DurableJobQueueError(.duplicateJob(single.id)) }
      return
    }
    let logger = silentLogger
    try await storage {
      try await client.withTransaction(logger: logger) { connection in
        for row in rows {
          let inserted = try await connection.query(insert(row.id, row.job), logger: logger)
            .collect()
          // Thrown inside the transaction: it is rolled back, and no job of the batch is kept.
          guard !inserted.isEmpty else { throw DurableJobQueueError(.duplicateJob(row.id)) }
        }
      }
    }
  }

  /// Inserts one job unless a row has its identity; the row's id comes back when it was
  /// inserted.
  private func insert(_ id: UUID, _ job: String) -> PostgresQuery {
    """
    INSERT INTO \(unescaped: tableName) (id, job) VALUES (\(id), \(job)::jsonb)
    ON CONFLICT (id) DO NOTHING RETURNING id
    """
  }

  /// Claims the oldest unfinished job that no live claim holds, skipping rows other processes
  /// are claiming at this moment, for `lease` seconds of the server's clock.
  public func claimNextJob(for lease: TimeInterval) async throws -> DurableJobClaim? {
    let token = UUID()
    let rows = try await storage {
      try await client.query(
        """
        UPDATE \(unescaped: tableName)
        SET claim_token = \(token), claim_expires_at = now() + make_interval(secs => \(lease))
        WHERE id = (
          SELECT id FROM \(unescaped: tableName)
          WHERE outcome IS NULL AND (claim_token IS NULL OR claim_expires_at <= now())
          ORDER BY accepted_order LIMIT 1
          FOR UPDATE SKIP LOCKED)
        RETURNING job::text, next_step, attempts, checkpoint
        """
      ).collect()
    }
    guard let row = rows.first else { return nil }
    let (text, nextStep, attempts, checkpoint) = try storageSync {
      try row.decode((String, Int, Int, ByteBuffer?).self)
    }
    return DurableJobClaim(
      job: try decode(DurableJob.self, from: text), nextStep: nextStep, attempts: attempts,
      checkpoint: checkpoint.map { Data($0.readableBytesView) }, token: token)
  }

  /// Moves the claim's expiry to `lease` seconds from the server's now.
  ///
  /// - Throws: ``DurableJobQueueError/Kind/claimLost`` when another process took the job.
  public func renew(_ claim: DurableJobClaim, for lease: TimeInterval) async throws {
    try await update(.renew(lease: lease), of: claim)
  }

  /// Writes how far the job got.
  ///
  /// - Throws: ``DurableJobQueueError/Kind/claimLost`` when another process took the job.
  public func record(_ progress: DurableJobProgress, of claim: DurableJobClaim) async throws {
    switch progress {
    case .stepFinished(let step):
      try await update(.stepFinished(step), of: claim)
    case .attemptFailed(_, let attempts):
      try await update(.attemptFailed(attempts: attempts), of: claim)
    case .checkpoint(_, let state):
      try await update(.checkpoint(ByteBuffer(bytes: state)), of: claim)
    }
  }

  /// Writes the outcome and lets the claim go: the job is done, its row kept for
  /// ``outcomes()`` until ``forgetOutcome(of:)``.
  ///
  /// - Throws: ``DurableJobQueueError/Kind/claimLost`` when another process took the job.
  public func finish(_ claim: DurableJobClaim, with outcome: DurableJobOutcome) async throws {
    try await update(.finish(outcome: try encode(outcome)), of: claim)
  }

  /// Clears the claim, so that the job is the next any process claims. A failure is not
  /// reported: the claim then expires by itself.
  public func release(_ claim: DurableJobClaim) async {
    try? await update(.release, of: claim)
  }

  /// The outcomes kept, of every process's jobs, in the order they were written.
  public func outcomes() async throws -> [DurableJobOutcome] {
    let texts = try await strings(
      """
      SELECT outcome::text FROM \(unescaped: tableName) WHERE outcome IS NOT NULL
      ORDER BY finished_at, accepted_order
      """)
    return try texts.map { try decode(DurableJobOutcome.self, from: $0) }
  }

  /// Deletes the finished job's row.
  public func forgetOutcome(of id: UUID) async throws {
    _ = try await storage {
      try await client.query(
        "DELETE FROM \(unescaped: tableName) WHERE id = \(id) AND outcome IS NOT NULL")
    }
  }

  /// The unfinished jobs, claimed or not, in the order they were accepted.
  public func unfinishedJobs() async throws -> [DurableJob] {
    let texts = try await strings(
      """
      SELECT job::text FROM \(unescaped: tableName) WHERE outcome IS NULL
      ORDER BY accepted_order
      """)
    return try texts.map { try decode(DurableJob.self, from: $0) }
  }

  // MARK: - Statements

  /// A change to a claimed job's row.
  private enum ClaimedChange {
    case renew(lease: TimeInterval)
    case stepFinished(Int)
    case attemptFailed(attempts: Int)
    case checkpoint(ByteBuffer)
    case finish(outcome: String)
    case release
  }

  /// Writes `change` to the claimed job's row, if the claim is still the job's: every statement
  /// ends `WHERE id = … AND claim_token = …`, and a row that no longer matches is a lost claim.
  ///
  /// - Throws: ``DurableJobQueueError/Kind/claimLost`` when no row matched.
  private func update(_ change: ClaimedChange, of claim: DurableJobClaim) async throws {
    let (id, token) = (claim.job.id, claim.token)
    let query: PostgresQuery
    switch change {
    case .renew(let lease):
      query = """
        UPDATE \(unescaped: tableName)
        SET claim_expires_at = now() + make_interval(secs => \(lease))
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    case .stepFinished(let step):
      query = """
        UPDATE \(unescaped: tableName)
        SET next_step = GREATEST(next_step, \(step + 1)), attempts = 0, checkpoint = NULL
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    case .attemptFailed(let attempts):
      query = """
        UPDATE \(unescaped: tableName) SET attempts = \(attempts)
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    case .checkpoint(let state):
      query = """
        UPDATE \(unescaped: tableName) SET checkpoint = \(state)
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    case .finish(let outcome):
      query = """
        UPDATE \(unescaped: tableName)
        SET outcome = \(outcome)::jsonb, finished_at = clock_timestamp(), claim_token = NULL,
          claim_expires_at = NULL
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    case .release:
      query = """
        UPDATE \(unescaped: tableName) SET claim_token = NULL, claim_expires_at = NULL
        WHERE id = \(id) AND claim_token = \(token) AND outcome IS NULL RETURNING id
        """
    }
    let rows = try await storage { try await client.query(query).collect() }
    guard !rows.isEmpty else { throw DurableJobQueueError(.claimLost) }
  }

  private func strings(_ query: PostgresQuery) async throws -> [String] {
    try await storage {
      var texts: [String] = []
      for try await text in try await client.query(query).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
  }

  // MARK: - Encoding and failures

  private func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try storageSync { String(decoding: try encoder.encode(value), as: UTF8.self) }
  }

  private func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
    try storageSync { try JSONDecoder().decode(type, from: Data(text.utf8)) }
  }

  /// Runs `body`, turning the server's failures into
  /// ``DurableJobQueueError/Kind/storage``. The detail holds the server's message and SQL state,
  /// never the client's configuration (and so never its password).
  private func storage<Result>(_ body: () async throws -> sending Result) async throws
    -> sending Result
  {
    do {
      return try await body()
    } catch {
      throw Self.storageError(error)
    }
  }

  /// ``storage(_:)`` for the coders' failures.
  private func storageSync<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch {
      throw Self.storageError(error)
    }
  }
}
