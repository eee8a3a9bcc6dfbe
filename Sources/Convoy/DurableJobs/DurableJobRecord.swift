import Foundation

/// One entry of a ``JournalJobStore``'s journal: what happened to a job, in the order it
/// happened. Replayed in order, the entries give every job's state after a restart.
///
/// Stored as one byte saying which entry it is, then its ``NumberedFieldsWriter`` fields. The
/// field numbers below are the format: a number is never reused for another meaning, and a field
/// added later is read with a default when absent, so that journals written by any version are
/// read by every later one.
enum DurableJobRecord: Sendable, Equatable {
  /// The jobs were accepted, all together: from now on they will run, in this run of the app or
  /// a later one.
  case accepted([DurableJob])
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

  /// The first byte of each kind of record.
  private enum Kind: UInt8 {
    case accepted = 1
    case stepFinished = 2
    case attemptFailed = 3
    case checkpoint = 4
    case finished = 5
    case forgotten = 6
  }

  /// The record as the journal keeps it.
  func encoded() -> Data {
    var fields = NumberedFieldsWriter()
    let kind: Kind
    switch self {
    case .accepted(let jobs):
      kind = .accepted
      for job in jobs { fields.append(1, job.fields) }
    case .stepFinished(let job, let step):
      kind = .stepFinished
      fields.append(1, job)
      fields.append(2, step)
    case .attemptFailed(let job, let step, let attempts):
      kind = .attemptFailed
      fields.append(1, job)
      fields.append(2, step)
      fields.append(3, attempts)
    case .checkpoint(let job, let step, let state):
      kind = .checkpoint
      fields.append(1, job)
      fields.append(2, step)
      fields.append(3, bytes: state)
    case .finished(let outcome):
      kind = .finished
      fields = outcome.fields
    case .forgotten(let job):
      kind = .forgotten
      fields.append(1, job)
    }
    var data = Data(capacity: fields.bytes.count + 1)
    data.append(kind.rawValue)
    data.append(contentsOf: fields.bytes)
    return data
  }

  /// Reads a record `encoded()` wrote.
  ///
  /// - Throws: ``NumberedFields/Malformed`` when the bytes are not such a record (damage the
  ///   journal's checksum missed, or a kind of record a newer version wrote).
  init(decoding data: Data) throws(NumberedFields.Malformed) {
    let bytes = [UInt8](data)
    guard let first = bytes.first, let kind = Kind(rawValue: first) else {
      throw NumberedFields.Malformed("a record of unknown kind \(bytes.first ?? 0)")
    }
    let fields = try NumberedFields(bytes[1...])
    switch kind {
    case .accepted:
      var jobs: [DurableJob] = []
      for job in try fields.allFields(1) { jobs.append(try DurableJob(job)) }
      self = .accepted(jobs)
    case .stepFinished:
      self = .stepFinished(
        job: try fields.required(fields.uuid(1), 1), step: try fields.required(fields.int(2), 2))
    case .attemptFailed:
      self = .attemptFailed(
        job: try fields.required(fields.uuid(1), 1), step: try fields.required(fields.int(2), 2),
        attempts: try fields.required(fields.int(3), 3))
    case .checkpoint:
      self = .checkpoint(
        job: try fields.required(fields.uuid(1), 1), step: try fields.required(fields.int(2), 2),
        state: Data(try fields.required(fields.bytes(3), 3)))
    case .finished:
      self = .finished(try DurableJobOutcome(fields))
    case .forgotten:
      self = .forgotten(job: try fields.required(fields.uuid(1), 1))
    }
  }
}

// The stored fields of what a record holds.

extension DurableJob {
  fileprivate var fields: NumberedFieldsWriter {
    var fields = NumberedFieldsWriter()
    fields.append(1, id)
    for step in steps { fields.append(2, step.fields) }
    fields.append(3, constraints.fields)
    return fields
  }

  fileprivate init(_ fields: NumberedFields) throws(NumberedFields.Malformed) {
    var steps: [DurableJobStep] = []
    for step in try fields.allFields(2) { steps.append(try DurableJobStep(step)) }
    self.init(
      id: try fields.required(fields.uuid(1), 1), steps: steps,
      constraints: try fields.fields(3).map(DurableJobConstraints.init) ?? .init())
  }
}

extension DurableJobStep {
  fileprivate var fields: NumberedFieldsWriter {
    var fields = NumberedFieldsWriter()
    fields.append(1, requestName)
    fields.append(2, bytes: request)
    if let idempotencyKey { fields.append(3, idempotencyKey) }
    return fields
  }

  fileprivate init(_ fields: NumberedFields) throws(NumberedFields.Malformed) {
    self.init(
      requestName: try fields.required(fields.string(1), 1),
      request: Data(try fields.required(fields.bytes(2), 2)),
      idempotencyKey: try fields.string(3))
  }
}

extension DurableJobConstraints {
  fileprivate var fields: NumberedFieldsWriter {
    var fields = NumberedFieldsWriter()
    if let notBefore { fields.append(1, notBefore) }
    if let expiresAt { fields.append(2, expiresAt) }
    fields.append(3, maximumAttempts)
    fields.append(4, baseDelay)
    fields.append(5, maximumDelay)
    fields.append(6, needsConnectivity)
    return fields
  }

  /// Constraints as stored; a field absent (written before it existed) gets its default.
  fileprivate init(_ fields: NumberedFields) throws(NumberedFields.Malformed) {
    let defaults = DurableJobConstraints()
    self.init(
      notBefore: try fields.date(1), expiresAt: try fields.date(2),
      maximumAttempts: try fields.int(3) ?? defaults.maximumAttempts,
      baseDelay: try fields.double(4) ?? defaults.baseDelay,
      maximumDelay: try fields.double(5) ?? defaults.maximumDelay,
      needsConnectivity: try fields.bool(6) ?? defaults.needsConnectivity)
  }
}

extension DurableJobOutcome {
  fileprivate var fields: NumberedFieldsWriter {
    var fields = NumberedFieldsWriter()
    fields.append(1, jobID)
    fields.append(2, finishedAt)
    switch ending {
    case .succeeded: fields.append(3, "succeeded")
    case .expired: fields.append(3, "expired")
    case .failed(let step, let category, let message):
      fields.append(3, "failed")
      fields.append(4, step)
      fields.append(5, category.rawValue)
      fields.append(6, message)
    }
    return fields
  }

  fileprivate init(_ fields: NumberedFields) throws(NumberedFields.Malformed) {
    let ending: Ending
    switch try fields.required(fields.string(3), 3) {
    case "succeeded": ending = .succeeded
    case "expired": ending = .expired
    case "failed":
      ending = .failed(
        step: try fields.required(fields.int(4), 4),
        // A category a later version added reads as `unknown`: the message still says it.
        category: try fields.string(5).flatMap(ErrorCategory.init(rawValue:)) ?? .unknown,
        message: try fields.string(6) ?? "")
    case let other: throw NumberedFields.Malformed("a job that ended as “\(other)”")
    }
    self.init(
      jobID: try fields.required(fields.uuid(1), 1), ending: ending,
      finishedAt: try fields.required(fields.date(2), 2))
  }
}
