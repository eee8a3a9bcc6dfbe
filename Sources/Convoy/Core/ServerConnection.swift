import Dispatch
import Foundation

/// Sends requests to one ``ServerConfiguration`` and owns the transport they travel on.
///
/// ```swift
/// let connection = ServerConnection(configuration: .staging)
/// let places = try await connection.execute(PlacesRequest()).value
/// ```
public final class ServerConnection: Sendable {
  /// Where requests go.
  public let configuration: ServerConfiguration
  /// What moves the bytes.
  public let transport: any HTTPTransport
  /// The decoder JSON responses use unless a request brings its own.
  public let decoder: JSONDecoder
  /// Adapters applied to every request, before the request's own.
  public let adapters: [any RequestAdapter]
  /// The decisions that judge every answer, unless a request brings its own chain.
  public let decisions: [any ResponseDecision]
  /// How many requests this connection sends at once, across all jobs; more wait their turn.
  public var networkConcurrencyLimit: Int { jobQueues.networkLimit }
  /// The queues jobs run on.
  let jobQueues: JobQueues

  /// The decisions a connection uses by default: validate the status, then decode.
  public static let standardDecisions: [any ResponseDecision] = [
    StatusValidation(), ResponseDecoding(),
  ]

  /// Creates a connection.
  ///
  /// - Parameters:
  ///   - configuration: Where requests go.
  ///   - transport: What moves the bytes; `URLSessionTransport` by default.
  ///   - decoder: The JSON decoder for responses (date and key strategies live here).
  ///   - adapters: Adapters applied to every request.
  ///   - decisions: The decision chain for every answer.
  ///   - networkConcurrencyLimit: How many requests may be in flight at once, across all jobs.
  public init(
    configuration: ServerConfiguration,
    transport: (any HTTPTransport)? = nil,
    decoder: JSONDecoder = JSONDecoder(),
    adapters: [any RequestAdapter] = [],
    decisions: [any ResponseDecision] = ServerConnection.standardDecisions,
    networkConcurrencyLimit: Int = 6
  ) {
    self.configuration = configuration
    self.transport = transport ?? URLSessionTransport()
    self.decoder = decoder
    self.adapters = adapters
    self.decisions = decisions
    self.jobQueues = JobQueues(networkLimit: networkConcurrencyLimit)
  }

  var pipeline: CallPipeline {
    CallPipeline(
      configuration: configuration, transport: transport, decoder: decoder, adapters: adapters,
      decisions: decisions)
  }

  /// Sends `request` and returns its typed answer.
  ///
  /// The call runs as a one-request job on the connection's network queue. Cancelling the
  /// calling task cancels the transfer and throws ``ServerConnectionError/cancelled``.
  /// - Throws: ``ServerConnectionError`` for everything Convoy judges; errors thrown by custom
  ///   adapters, decisions or response types as they are.
  public func execute<Request: RequestDescribing>(_ request: Request) async throws
    -> Request.Response
  {
    try await run(RequestJob(request: request))
  }

  /// Sends `request` and delivers its typed answer on `completionQueue`.
  ///
  /// The call runs as a one-request job on the connection's network queue.
  /// - Parameters:
  ///   - request: What to send.
  ///   - completionQueue: Where `completion` runs; the main queue by default.
  ///   - completion: Runs exactly once, with the answer or the error (``ServerConnectionError/cancelled``
  ///     after the token was cancelled).
  /// - Returns: A token that cancels the call.
  @discardableResult
  public func execute<Request: RequestDescribing>(
    _ request: Request,
    completionQueue: DispatchQueue = .main,
    completion: @escaping @Sendable (Result<Request.Response, any Error>) -> Void
  ) -> JobToken {
    run(RequestJob(request: request), completionQueue: completionQueue, completion: completion)
  }
}
