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

  /// The step's request decoded as `type`, or `nil` when it holds another kind of request: for
  /// showing what waits in a queue.
  public func request<Request: DurableRequest>(as type: Request.Type) -> Request? {
    guard requestName == Request.durableName else { return nil }
    return try? JSONDecoder().decode(Request.self, from: request)
  }

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
  /// Whether a step waits while the connection's ``ConnectivityMonitor`` says offline, instead
  /// of being sent to fail: the wait spends no attempt, and ends as soon as the network is
  /// back. A step that failed offline waits the same way rather than for its back-off. Without a
  /// monitor on the connection, steps never wait for it.
  public var needsConnectivity: Bool

  /// Constraints; by default a job starts at once, never expires, waits for the network, and a
  /// step is tried 10 times.
  public init(
    notBefore: Date? = nil, expiresAt: Date? = nil, maximumAttempts: Int = 10,
    baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 300, needsConnectivity: Bool = true
  ) {
    self.notBefore = notBefore
    self.expiresAt = expiresAt
    self.maximumAttempts = maximumAttempts
    self.baseDelay = baseDelay
    self.maximumDelay = maximumDelay
    self.needsConnectivity = needsConnectivity
  }

  /// Reads constraints kept by any version: a field a version did not write gets its default,
  /// so that jobs accepted before an update still run after it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = DurableJobConstraints()
    notBefore = try container.decodeIfPresent(Date.self, forKey: .notBefore)
    expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
    maximumAttempts =
      try container.decodeIfPresent(Int.self, forKey: .maximumAttempts) ?? defaults.maximumAttempts
    baseDelay =
      try container.decodeIfPresent(TimeInterval.self, forKey: .baseDelay) ?? defaults.baseDelay
    maximumDelay =
      try container.decodeIfPresent(TimeInterval.self, forKey: .maximumDelay)
      ?? defaults.maximumDelay
    needsConnectivity =
      try container.decodeIfPresent(Bool.self, forKey: .needsConnectivity)
      ?? defaults.needsConnectivity
  }
}

extension DurableJobConstraints {
  /// The wait after `attempts` failed attempts of a step: the back-off of a ``RetryPolicy`` that
  /// starts at ``baseDelay`` and doubles up to ``maximumDelay``, without jitter (a durable job
  /// waits on its own, so no crowd of clients needs spreading).
  func backoff(afterFailedAttempts attempts: Int) -> TimeInterval {
    RetryPolicy(baseDelay: baseDelay, multiplier: 2, maximumDelay: maximumDelay, jitter: 0)
      .backoff(beforeRetry: attempts)
  }
}
