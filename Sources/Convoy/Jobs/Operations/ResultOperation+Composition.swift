import Foundation

extension ResultOperation {
  /// A chain that runs this operation, then the operation `makeNext` builds from its output.
  ///
  /// `makeNext` runs only after this operation succeeded, so the next request is built with
  /// what this one returned. An error here, or thrown by `makeNext`, stops the chain.
  ///
  /// ```swift
  /// connection.operation(for: ProfileRequest())
  ///   .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
  /// ```
  /// - Parameter makeNext: Builds the next step from this step's output.
  /// - Returns: The chain, an operation whose output is the next step's.
  public func then<Next: Sendable>(
    _ makeNext: @escaping @Sendable (Output) throws -> ResultOperation<Next>
  ) -> ResultOperation<Next> {
    chainForExtension().extended { previous, next in
      ChainStep(producesOperation: true) {
        let operation = try makeNext(previous.take())
        return .operation(operation) { next.put(operation.settledResult) }
      }
    }
  }

  /// A chain that runs this operation, then turns its output into another value.
  ///
  /// The transform runs inline, on the thread that finished this operation, without an
  /// operation of its own; an error it throws stops the chain.
  ///
  /// ```swift
  /// GroupOperation.all(profile, articles).map { profile, articles in
  ///   HomeScreen(profile: profile.value, articles: articles.value)
  /// }
  /// ```
  /// - Parameter transform: Makes the new value.
  /// - Returns: The chain, an operation whose output is the transformed value.
  public func map<Next: Sendable>(
    _ transform: @escaping @Sendable (Output) throws -> Next
  ) -> ResultOperation<Next> {
    chainForExtension().extended { previous, next in
      ChainStep(producesOperation: false) {
        next.put(.success(try transform(previous.take())))
        return .value
      }
    }
  }
}
