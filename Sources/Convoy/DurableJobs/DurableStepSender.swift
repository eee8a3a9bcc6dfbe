import Foundation

/// What a ``DurableJobQueue`` knows of one kind of step: how to check that a stored step
/// decodes, and how to send it.
struct DurableStepSender: Sendable {
  let decodes: @Sendable (Data) -> Bool
  let send: @Sendable (DurableJobStep, DurableStepContext) async throws -> Void

  init(
    decodes: @escaping @Sendable (Data) -> Bool,
    send: @escaping @Sendable (DurableJobStep, DurableStepContext) async throws -> Void
  ) {
    self.decodes = decodes
    self.send = send
  }

  /// The sender of `type`'s requests: one call each, with the step's idempotency key.
  init<Request: DurableRequest>(_ type: Request.Type) {
    decodes = { (try? JSONDecoder().decode(Request.self, from: $0)) != nil }
    send = { step, context in
      let request = try JSONDecoder().decode(Request.self, from: step.request)
      guard let key = step.idempotencyKey else {
        _ = try await context.connection.execute(request)
        return
      }
      // The key makes a second sending harmless, so a lost answer may be retried whatever the
      // method.
      _ = try await context.connection.execute(
        RequestWithExtraHeaders(
          base: request, extraHeaders: HTTPHeaders(["Idempotency-Key": key]),
          allowsRetryAnyway: true))
    }
  }
}

/// What a step being sent can use: the connection, and where it saved its own progress before.
struct DurableStepContext: Sendable {
  let connection: ServerConnection
  /// What the step saved with ``save(_:)`` in an earlier attempt or run, if anything.
  let checkpoint: Data?
  /// Saves the step's progress durably, to go on from there after a failure or a restart.
  let save: @Sendable (Data) async throws -> Void
  /// Reports a change of the job (an upload resumed or restarted).
  let report: @Sendable (ConvoyEvent.DurableJobChanged.Change, Int64?) -> Void
}
