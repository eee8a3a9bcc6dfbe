import Foundation

extension GroupOperation {
  /// A group of same-typed children whose output is every child's value, in the children's order.
  ///
  /// The first failure cancels the siblings and the group fails with it.
  /// - Parameters:
  ///   - children: The operations to run side by side.
  ///   - maximumConcurrentChildren: How many children may run at once; `nil` leaves it to the
  ///     connection's network limit.
  ///
  /// The children may be of any one operation type, such as `[DownloadOperation<PhotoRequest>]`
  /// or `[NetworkRequestOperation<PlaceRequest>]`: no cast to `ResultOperation` is needed.
  public convenience init<Element: Sendable, Child: ResultOperation<Element>>(
    _ children: [Child], maximumConcurrentChildren: Int? = nil
  ) where Output == [Element] {
    self.init(
      children: children, policy: .failFast, maximumConcurrentChildren: maximumConcurrentChildren
    ) {
      try children.map { try $0.settledResult.get() }
    }
  }

  /// A group of same-typed children that all run to their end; the output is each child's
  /// result, in the children's order, and the group itself fails only when it is cancelled.
  /// - Parameters:
  ///   - children: The operations to run side by side.
  ///   - maximumConcurrentChildren: How many children may run at once; `nil` leaves it to the
  ///     connection's network limit.
  public convenience init<Element: Sendable, Child: ResultOperation<Element>>(
    collecting children: [Child], maximumConcurrentChildren: Int? = nil
  ) where Output == [Result<Element, any Error>] {
    self.init(
      children: children, policy: .collectAll,
      maximumConcurrentChildren: maximumConcurrentChildren
    ) {
      children.map(\.settledResult)
    }
  }
}

extension GroupOperation {
  /// A group of differently typed children whose output is a tuple of their values; the first
  /// failure cancels the siblings and the group fails with it.
  ///
  /// ```swift
  /// GroupOperation.all(profile, articles, settings).map { profile, articles, settings in
  ///   HomeScreen(profile: profile.value, articles: articles.value, settings: settings.value)
  /// }
  /// ```
  /// - Parameters:
  ///   - children: The operations to run side by side.
  ///   - maximumConcurrentChildren: How many may run at once; `nil` leaves it to the connection.
  /// - Returns: A group producing `(A, B, …)`.
  public static func all<each Element: Sendable>(
    _ children: repeat ResultOperation<each Element>, maximumConcurrentChildren: Int? = nil
  ) -> GroupOperation<(repeat each Element)> where Output == (repeat each Element) {
    var list: [AsyncOperation] = []
    for child in repeat each children { list.append(child) }
    return GroupOperation<(repeat each Element)>(
      children: list, policy: .failFast, maximumConcurrentChildren: maximumConcurrentChildren
    ) {
      (repeat try (each children).settledResult.get())
    }
  }

  /// A group of differently typed children that all run to their end; the output is a tuple of
  /// their results.
  /// - Parameters:
  ///   - children: The operations to run side by side.
  ///   - maximumConcurrentChildren: How many may run at once; `nil` leaves it to the connection.
  /// - Returns: A group producing `(Result<A, Error>, Result<B, Error>, …)`.
  public static func collecting<each Element: Sendable>(
    _ children: repeat ResultOperation<each Element>, maximumConcurrentChildren: Int? = nil
  ) -> GroupOperation<(repeat Result<each Element, any Error>)>
  where Output == (repeat Result<each Element, any Error>) {
    var list: [AsyncOperation] = []
    for child in repeat each children { list.append(child) }
    return GroupOperation<(repeat Result<each Element, any Error>)>(
      children: list, policy: .collectAll, maximumConcurrentChildren: maximumConcurrentChildren
    ) {
      (repeat (each children).settledResult)
    }
  }
}
