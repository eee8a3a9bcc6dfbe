import Foundation

/// What a ``DurableJobQueue`` knows of one registered ``DurableRequest`` type: how to check that
/// a stored step decodes, and how to send it.
struct DurableStepSender: Sendable {
  let decodes: @Sendable (Data) -> Bool
  let send: @Sendable (DurableJobStep, ServerConnection) async throws -> Void

  init<Request: DurableRequest>(_ type: Request.Type) {
    decodes = { (try? JSONDecoder().decode(Request.self, from: $0)) != nil }
    send = { step, connection in
      let request = try JSONDecoder().decode(Request.self, from: step.request)
      guard let key = step.idempotencyKey else {
        _ = try await connection.execute(request)
        return
      }
      // The key makes a second sending harmless, so a lost answer may be retried whatever the
      // method.
      _ = try await connection.execute(
        RequestWithExtraHeaders(
          base: request, extraHeaders: HTTPHeaders(["Idempotency-Key": key]),
          allowsRetryAnyway: true))
    }
  }

  func decodes(_ request: Data) -> Bool { decodes(request) }

  func send(_ step: DurableJobStep, on connection: ServerConnection) async throws {
    try await send(step, connection)
  }
}
