import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the pipeline reports about a call while it runs.
///
/// An internal seam for the observation issue: ``CallPipeline/observer`` receives every attempt
/// before it is sent and every retry before its wait, so event observers and loggers can be
/// built on it without another path through the pipeline.
enum PipelineEvent: Sendable {
  /// Why an attempt is being retried.
  enum RetryReason: Sendable, Hashable {
    /// The answer had this status.
    case status(Int)
    /// No answer arrived.
    case failure(TransportFailure)
  }

  /// Attempt number `attempt` (from 1) is about to be sent, adapters applied.
  case sending(URLRequest, attempt: Int)
  /// Attempt number `attempt` failed for `reason`; retry number `retry` follows after `delay`.
  case retrying(reason: RetryReason, attempt: Int, retry: Int, delay: TimeInterval)
}
