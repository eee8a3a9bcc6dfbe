import Foundation

/// Why a ``DurableJobQueue`` refused a job or could not keep its journal.
public struct DurableJobQueueError: Error, Sendable, Hashable, CategorizedError,
  CustomStringConvertible
{
  /// What went wrong.
  public enum Kind: Sendable, Hashable {
    /// The queue is not started (``DurableJobQueue/start()``), or was stopped.
    case notStarted
    /// A job with no steps.
    case noSteps
    /// A step's request type was not registered (``DurableJobQueue/register(_:)``), so a later
    /// run of the app could not send it.
    case unregisteredRequest(name: String)
    /// A step's stored request does not decode as its registered type.
    case undecodableRequest(name: String)
    /// A job with this identity was accepted already.
    case duplicateJob(UUID)
    /// The journal could not be read or written (the detail says which file and why).
    case storage
    /// Another process has the journal open: a journal serves one process at a time.
    case inUse
    /// The job's claim ran out and another process took the job up: this one must let it go.
    case claimLost
  }

  /// What went wrong.
  public let kind: Kind
  /// More about it, for logs.
  public let detail: String

  /// A failure of `kind`.
  public init(_ kind: Kind, detail: String = "") {
    self.kind = kind
    self.detail = detail
  }

  /// ``ErrorCategory/fileNotSaved`` for the store, ``ErrorCategory/invalidRequest`` for jobs the
  /// queue cannot keep.
  public var category: ErrorCategory {
    switch kind {
    case .storage, .inUse, .claimLost: .fileNotSaved
    default: .invalidRequest
    }
  }

  /// The kind and detail, for logs.
  public var description: String {
    detail.isEmpty ? "durable job queue: \(kind)" : "durable job queue: \(kind): \(detail)"
  }
}
