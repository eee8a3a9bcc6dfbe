import Foundation

/// Work that must happen even if the app is killed or the network is down: requests sent in
/// order, each once it is its turn, kept on disk until they are done.
///
/// ```swift
/// let job = try DurableJob(steps: [.request(PlaceOrder(itemID: 7))])
/// ```
public struct DurableJob: Sendable, Hashable, Identifiable, Codable {
  /// The job's identity, kept across runs of the app.
  public let id: UUID
  /// The requests, sent one after the other: a step starts once the one before it succeeded.
  public let steps: [DurableJobStep]
  /// When and how often the job may run.
  public var constraints: DurableJobConstraints

  /// A job of `steps`, with `constraints`.
  public init(
    id: UUID = UUID(), steps: [DurableJobStep], constraints: DurableJobConstraints = .init()
  ) {
    self.id = id
    self.steps = steps
    self.constraints = constraints
  }
}

/// One request of a ``DurableJob``, in its stored form.
public struct DurableJobStep: Sendable, Hashable, Codable {
  /// The ``DurableRequest/durableName`` of the request's type.
  public let requestName: String
  /// The request, encoded as JSON.
  let request: Data
  /// Sent as `Idempotency-Key` with every attempt of a request whose method is not idempotent,
  /// in this run of the app and after a restart: a server that honours it applies the request
  /// once (draft-ietf-httpapi-idempotency-key-header).
  public let idempotencyKey: String?

  /// The step that sends `request`.
  ///
  /// - Throws: `EncodingError` when the request cannot be encoded.
  public static func request<Request: DurableRequest>(_ request: Request) throws -> DurableJobStep {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return DurableJobStep(
      requestName: Request.durableName, request: try encoder.encode(request),
      idempotencyKey: request.method.isIdempotent ? nil : UUID().uuidString.lowercased())
  }
}

/// When and how often a ``DurableJob`` may run.
public struct DurableJobConstraints: Sendable, Hashable, Codable {
  /// The job does not start before this date.
  public var notBefore: Date?
  /// The job is given up, with ``DurableJobOutcome/Ending/expired``, once this date passes
  /// unfinished.
  public var expiresAt: Date?
  /// How many times a step may be sent before the job fails; a failure that says the request
  /// never reached the server (offline, refused) counts too.
  public var maximumAttempts: Int
  /// The wait after the first failed attempt of a step; it doubles with each failure after it,
  /// up to ``maximumDelay``.
  public var baseDelay: TimeInterval
  /// The longest wait between attempts.
  public var maximumDelay: TimeInterval

  /// Constraints; by default a job starts at once, never expires, and a step is tried 10 times.
  public init(
    notBefore: Date? = nil, expiresAt: Date? = nil, maximumAttempts: Int = 10,
    baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 300
  ) {
    self.notBefore = notBefore
    self.expiresAt = expiresAt
    self.maximumAttempts = maximumAttempts
    self.baseDelay = baseDelay
    self.maximumDelay = maximumDelay
  }
}
