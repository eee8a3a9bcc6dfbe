import Foundation

/// Receives one streamed transfer from a transport, part by part, as it happens.
///
/// A transport calls the methods in order and never two at once: ``transferDidReceiveHead(_:)``
/// at most once, then ``transferDidReceiveBody(_:)`` for each piece of the body, and
/// ``transferDidComplete(_:)`` exactly once, last. ``transferDidSendBody(_:)`` may come at any
/// time before the completion.
package protocol TransferReceiver: Sendable {
  /// The head of the answer arrived (after any `1xx` interim answers, which are not reported).
  func transferDidReceiveHead(_ head: HTTPResponse)

  /// A piece of the body arrived, decoded from any content coding.
  ///
  /// - Returns: ``TransferFlow/pause`` when the receiver holds as much as it wants to: the
  ///   transport then delivers nothing more until ``StreamingTransferHandle/resumeReceiving()``.
  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow

  /// The request body's progress: bytes sent so far and, when known, in all.
  func transferDidSendBody(_ progress: TransferProgress)

  /// The trailer fields that followed the body, told once, after the last piece of the body and
  /// before ``transferDidComplete(_:)``, only when there were some.
  func transferDidReceiveTrailers(_ trailers: HTTPHeaders)

  /// The transfer is over: the body ended (with the metrics), or it failed or was cancelled.
  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>)
}

extension TransferReceiver {
  /// Ignores upload progress.
  package func transferDidSendBody(_ progress: TransferProgress) {}

  /// Ignores trailer fields.
  package func transferDidReceiveTrailers(_ trailers: HTTPHeaders) {}
}

/// Whether a transport may go on delivering body bytes.
package enum TransferFlow: Sendable, Hashable {
  /// Deliver more as it arrives.
  case proceed
  /// Deliver nothing more until the receiver asks for it again.
  case pause
}

/// Controls one streamed transfer.
package protocol StreamingTransferHandle: TransferHandle {
  /// Lets a transfer paused by ``TransferFlow/pause`` deliver body bytes again. Harmless when it
  /// is not paused or already over.
  func resumeReceiving()
}

/// The handle of a transfer that failed before it started: there is nothing to stop.
struct NothingToCancel: StreamingTransferHandle {
  func cancel() {}
  func resumeReceiving() {}
}

/// How many bytes of a body went over the wire, and how many there are in all when known.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
  /// Bytes transferred so far.
  public var completedBytes: Int64
  /// The body's full size, or `nil` when the other side did not announce it.
  public var totalBytes: Int64?

  /// Creates a progress value.
  public init(completedBytes: Int64, totalBytes: Int64?) {
    self.completedBytes = completedBytes
    self.totalBytes = totalBytes
  }

  /// The share done, from 0 to 1, or `nil` when the total is unknown.
  public var fractionCompleted: Double? {
    guard let totalBytes, totalBytes > 0 else { return nil }
    return min(1, Double(completedBytes) / Double(totalBytes))
  }

  /// `"1.5 MB of 10 MB"`, or `"1.5 MB"` when the total is unknown.
  public var description: String {
    let done = ByteCountFormatter.string(fromByteCount: completedBytes, countStyle: .file)
    guard let totalBytes else { return done }
    return "\(done) of \(ByteCountFormatter.string(fromByteCount: totalBytes, countStyle: .file))"
  }
}
