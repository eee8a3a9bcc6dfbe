/// How far a job got, in units of operations and in bytes transferred.
///
/// Every operation that does work (a request, a block) is one unit; chains and groups count the
/// units inside them. The total grows while a chain builds later steps from earlier outputs, and
/// the last update a job reports has `completedUnitCount == totalUnitCount`, whatever the outcome.
///
/// Downloads and uploads also count their bytes, so a job of a few large transfers can show a
/// progress bar that moves while each one runs: ``transferredBytes`` and, once every transfer
/// that started knows its size, ``expectedBytes``.
public struct JobProgress: Sendable, Hashable, CustomStringConvertible {
  /// Units done.
  public var completedUnitCount: Int
  /// Units known so far.
  public var totalUnitCount: Int
  /// Bytes downloaded and uploaded so far by the job's transfers.
  public var transferredBytes: Int64
  /// The bytes the job's transfers that started so far will move in all, or `nil` while one of
  /// them does not know its size.
  public var expectedBytes: Int64?

  /// Creates a progress value.
  public init(
    completedUnitCount: Int, totalUnitCount: Int, transferredBytes: Int64 = 0,
    expectedBytes: Int64? = nil
  ) {
    self.completedUnitCount = completedUnitCount
    self.totalUnitCount = totalUnitCount
    self.transferredBytes = transferredBytes
    self.expectedBytes = expectedBytes
  }

  /// The share of the expected bytes moved, from 0 to 1, or `nil` when they are not known.
  public var fractionOfBytes: Double? {
    guard let expectedBytes, expectedBytes > 0 else { return nil }
    return min(1, Double(transferredBytes) / Double(expectedBytes))
  }

  /// The share done, from 0 to 1; 0 while the total is unknown.
  public var fractionCompleted: Double {
    totalUnitCount > 0 ? min(1, Double(completedUnitCount) / Double(totalUnitCount)) : 0
  }

  /// `"3/5"`.
  public var description: String { "\(completedUnitCount)/\(totalUnitCount)" }
}
