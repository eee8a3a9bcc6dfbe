extension Task where Success == Void, Failure == Never {
  /// Starts `work` in a new task that runs on the calling thread until its first suspension.
  ///
  /// A call's beginning (building its request, handing it to the transport) is short and ends
  /// in a suspension, the wait for the answer. Running it where the call was made saves the
  /// hand-over to a thread of the global executor that `Task { }` costs: a thread woken for
  /// every call. Callers use it only where the calling thread is a queue's or the app's own,
  /// never to run one call's beginning inside another call's end, which would nest calls when a
  /// transport answers at once.
  ///
  /// Before `Task.immediate` (macOS 26, iOS 26) the task starts as `Task { }` does.
  @discardableResult
  static func startingHere(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return Task.immediate(operation: work)
    }
    return Task(operation: work)
  }
}
