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
  /// Receive every event of this connection's calls and jobs.
  public let observers: [any EventObserver]
  /// Begins a span for each of this connection's calls; `nil` when it does not trace them.
  public let tracing: (any CallTracing)?
  /// Tells whether the network is there, for calls that wait for it
  /// (``ServerConfiguration/waitsForConnectivity``) and for ``connectivity``; `nil` when the
  /// connection has none.
  public let connectivityMonitor: (any ConnectivityMonitor)?
  /// Reports the monitor's changes to the observers while the connection lives.
  private let connectivityReporter: Task<Void, Never>?
  /// The session and its renewal.
  let authentication: SessionController
  /// Made once: see ``pipeline``.
  private let sharedPipeline: CallPipeline
  /// The configured OAuth2 client and its server's endpoints.
  let authorizationServer: AuthorizationServer
  /// How many requests this connection sends at once, across all jobs; more wait their turn.
  public var networkConcurrencyLimit: Int { jobQueues.networkLimit }
  /// The queues jobs run on.
  let jobQueues: JobQueues
  /// Where calls made with `execute` outside any job run: the network limit, no progress.
  let callContext: OperationContext

  /// Creates a connection.
  ///
  /// - Parameters:
  ///   - configuration: Where requests go.
  ///   - transport: What moves the bytes; ``PlatformTransport/shared`` by default.
  ///   - decoder: The JSON decoder for responses (date and key strategies live here).
  ///   - adapters: Adapters applied to every request.
  ///   - decisions: The decision chain for every answer.
  ///   - sessionStore: Where the session is kept across launches; `nil` keeps it in memory only.
  ///     Call ``restoreSession()`` to load a saved one.
  ///   - cache: An HTTP cache to answer from and revalidate with; `nil` for none. The transport
  ///     is wrapped in a ``CachingTransport``.
  ///   - coalescesIdenticalRequests: Whether identical GETs in flight share one transfer
  ///     (``CoalescingTransport``, under the cache).
  ///   - observers: Receive every event of this connection's calls and jobs: loggers, analytics,
  ///     a ``NetworkActivityCounter``.
  ///   - tracing: Follows every call with a span of a distributed-tracing system, whose context
  ///     each attempt sends to the server: jobs' calls, streams, downloads and token renewals
  ///     (children of the call that started them) included. `ConvoyTracing`'s
  ///     `DistributedTracing` for swift-distributed-tracing; `nil` (the default) for none.
  ///   - networkConcurrencyLimit: How many requests may be in flight at once, across all jobs.
  ///   - connectivityMonitor: Tells whether the network is there. `nil` (the default) means
  ///     ``PlatformConnectivity/shared`` when `transport` is `nil`, since the platform transport
  ///     uses the system's network, and no monitor with a transport of one's own (a stub never
  ///     uses the network; pass ``PlatformConnectivity/shared`` for one that does).
  public init(
    configuration: ServerConfiguration,
    transport: (any HTTPTransport)? = nil,
    decoder: JSONDecoder = JSONDecoder(),
    adapters: [any RequestAdapter] = ServerConnection.standardAdapters,
    decisions: [any ResponseDecision] = ServerConnection.standardDecisions,
    sessionStore: (any SessionStore)? = nil,
    cache: HTTPCache? = nil,
    coalescesIdenticalRequests: Bool = false,
    observers: [any EventObserver] = [],
    tracing: (any CallTracing)? = nil,
    networkConcurrencyLimit: Int = 6,
    connectivityMonitor: (any ConnectivityMonitor)? = nil
  ) {
    let monitor = connectivityMonitor ?? (transport == nil ? PlatformConnectivity.shared : nil)
    self.connectivityMonitor = monitor
    self.connectivityReporter = monitor.flatMap {
      Self.reportConnectivity(of: $0, to: observers)
    }
    var network = transport ?? PlatformTransport.shared
    if coalescesIdenticalRequests { network = CoalescingTransport(wrapping: network) }
    if let cache { network = CachingTransport(wrapping: network, cache: cache) }
    self.configuration = configuration
    self.transport = network
    self.decoder = decoder
    self.adapters = adapters
    self.decisions = decisions
    self.observers = observers
    self.tracing = tracing
    self.jobQueues = JobQueues(networkLimit: networkConcurrencyLimit)
    self.callContext = OperationContext(queues: jobQueues, progress: nil)
    self.authentication = SessionController(
      configuration: configuration.authentication, store: sessionStore,
      clock: configuration.clock)
    self.sharedPipeline = CallPipeline(
      configuration: configuration, transport: network, decoder: decoder, adapters: adapters,
      decisions: decisions, authentication: authentication, tracing: tracing,
      connectivity: monitor, observers: observers)
    // The renewal pipeline has no session of its own, so renewing can never recurse, and it
    // holds no reference back to the controller, so there is no cycle. It reports to the same
    // observers and tracing: a renewal is a call like any other, logged, counted and traced,
    // redacted the same way.
    let renewal = CallPipeline(
      configuration: configuration, transport: self.transport, decoder: decoder,
      adapters: adapters, decisions: decisions, authentication: nil, tracing: tracing,
      connectivity: monitor, observers: observers)
    let authorizationServer = AuthorizationServer(client: configuration.authentication.client)
    self.authorizationServer = authorizationServer
    authentication.setRenewal { session, caller in
      var renewal = renewal
      renewal.parentSpan = caller
      return try await authorizationServer.renew(session, through: renewal)
    }
    authentication.setProblemReporter { [observers] problem in
      EventEmitter.notice(to: observers, problem)
    }
    authentication.setNotifier { [weak self] session in
      NotificationCenter.default.post(
        name: .convoySessionDidChange, object: self,
        userInfo: [SessionChange.loggedInKey: session != nil])
    }
    if transport == nil, !observers.isEmpty, let reason = PlatformTransport.takeFallbackReason() {
      EventEmitter.notice(to: observers, reason)
    }
  }

  deinit {
    connectivityReporter?.cancel()
  }

  /// The road every call of this connection travels; each operation keeps a copy, which shares
  /// the connection's parts rather than copying them.
  var pipeline: CallPipeline { sharedPipeline }
}
