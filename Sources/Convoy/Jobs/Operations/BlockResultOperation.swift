import Foundation

/// An operation that computes its output with a closure: a local step in a job (parsing,
/// combining, reading a cache) that needs no request.
///
/// ```swift
/// let total = BlockResultOperation { try cache.load(Totals.self) }
/// ```
public final class BlockResultOperation<Output: Sendable>: ResultOperation<Output>,
  @unchecked Sendable
{
  private let body: @Sendable () throws -> Output

  /// Creates an operation that runs `body` once it starts; an error it throws is the result.
  public init(_ body: @escaping @Sendable () throws -> Output) {
    self.body = body
    super.init()
  }

  /// Runs the closure.
  public override func execute() {
    finish(with: Result { try body() })
  }
}
