/// How far a job got, in units of operations.
///
/// Every operation that does work (a request, a block) is one unit; chains and groups count the
/// units inside them. The total grows while a chain builds later steps from earlier outputs, and
/// the last update a job reports has `completedUnitCount == totalUnitCount`, whatever the outcome.
public struct JobProgress: Sendable, Hashable, CustomStringConvertible {
  /// Units done.
  public var completedUnitCount: Int
  /// Units known so far.
  public var totalUnitCount: Int

  /// Creates a progress value.
  public init(completedUnitCount: Int, totalUnitCount: Int) {
    self.completedUnitCount = completedUnitCount
    self.totalUnitCount = totalUnitCount
  }

  /// The share done, from 0 to 1; 0 while the total is unknown.
  public var fractionCompleted: Double {
    totalUnitCount > 0 ? min(1, Double(completedUnitCount) / Double(totalUnitCount)) : 0
  }

  /// `"3/5"`.
  public var description: String { "\(completedUnitCount)/\(totalUnitCount)" }
}
