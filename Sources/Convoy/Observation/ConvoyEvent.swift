import Foundation

/// One thing that happened to a call or a job, for loggers, analytics and activity counters.
///
/// An event is its date and its ``Kind``: one case per kind of event, each carrying a payload
/// with exactly the fields that kind always has, so an observer switches instead of guessing:
///
/// ```swift
/// AnyEventObserver { event in
///   switch event.kind {
///   case .responseReceived(let response):
///     print("#\(response.call.id) ← \(response.status) in \(response.duration) s")
///   case .requestFailed(let failure):
///     print("#\(failure.call.id) failed (\(failure.errorCategory)): \(failure.reason)")
///   default:
///     break
///   }
/// }
/// ```
///
/// URLs, headers and reasons are redacted by the payloads' initializers (with
/// ``SecretRedactor``) and cannot be changed afterwards: an observer never sees a secret.
public struct ConvoyEvent: Sendable, Hashable {
  /// When it happened.
  public var date: Date
  /// What happened, with the fields of that kind of event.
  public var kind: Kind

  /// Creates an event of `kind` that happened at `date`.
  public init(_ kind: Kind, date: Date = Date()) {
    self.kind = kind
    self.date = date
  }

  /// A notice with `text`, redacted: something worth knowing that is not about one call.
  public static func notice(_ text: String, date: Date = Date()) -> ConvoyEvent {
    ConvoyEvent(.notice(Notice(text)), date: date)
  }

  /// What happened, one case per kind of event.
  public enum Kind: Sendable, Hashable {
    /// A call began.
    case requestCreated(RequestCreated)
    /// An attempt's adapters ran.
    case requestAdapted(RequestAdapted)
    /// An attempt was handed to the transport.
    case requestSent(RequestSent)
    /// An attempt failed and will be sent again after a delay.
    case requestRetried(RequestRetried)
    /// An answer arrived.
    case responseReceived(ResponseReceived)
    /// A decision judged the answer.
    case decisionTaken(DecisionTaken)
    /// The call produced its value.
    case requestFinished(RequestFinished)
    /// The call failed.
    case requestFailed(RequestFailed)
    /// The call was cancelled.
    case requestCancelled(RequestCancelled)
    /// A job began.
    case jobStarted(JobStarted)
    /// A job's progress changed.
    case jobProgress(JobProgressChanged)
    /// A job produced its output.
    case jobFinished(JobFinished)
    /// A job failed.
    case jobFailed(JobFailed)
    /// A job was cancelled.
    case jobCancelled(JobCancelled)
    /// An event stream or a reconnecting WebSocket ended or dropped and will be opened again
    /// after a delay.
    case streamReconnecting(StreamReconnecting)
    /// A WebSocket's upgrade succeeded.
    case webSocketOpened(WebSocketOpened)
    /// A message, ping or pong went out or came in on a WebSocket.
    case webSocketMessage(WebSocketMessageMoved)
    /// A WebSocket ended: closed, failed, or its upgrade failed.
    case webSocketClosed(WebSocketClosed)
    /// A durable job was accepted, resumed, finished a step, waits to retry, or ended.
    case durableJob(DurableJobChanged)
    /// A durable job queue's journal was repaired when it was opened.
    case journalRepaired(JournalRepaired)
    /// Something worth knowing that is not about one call, e.g. a transport fallback.
    case notice(Notice)
    /// The network went away or came back, as the connection's monitor reads it.
    case connectivityChanged(ConnectivityChanged)
    /// A call waits for the network before it is sent.
    case requestWaitingForConnectivity(RequestWaitingForConnectivity)
  }

  /// The stable name of each kind of event. The raw values are the names written by
  /// ``JSONLinesLogger``.
  public enum Name: String, Sendable, Hashable, CaseIterable {
    /// ``Kind/requestCreated(_:)``.
    case requestCreated = "request.created"
    /// ``Kind/requestAdapted(_:)``.
    case requestAdapted = "request.adapted"
    /// ``Kind/requestSent(_:)``.
    case requestSent = "request.sent"
    /// ``Kind/requestRetried(_:)``.
    case requestRetried = "request.retried"
    /// ``Kind/responseReceived(_:)``.
    case responseReceived = "response.received"
    /// ``Kind/decisionTaken(_:)``.
    case decisionTaken = "decision.taken"
    /// ``Kind/requestFinished(_:)``.
    case requestFinished = "request.finished"
    /// ``Kind/requestFailed(_:)``.
    case requestFailed = "request.failed"
    /// ``Kind/requestCancelled(_:)``.
    case requestCancelled = "request.cancelled"
    /// ``Kind/jobStarted(_:)``.
    case jobStarted = "job.started"
    /// ``Kind/jobProgress(_:)``.
    case jobProgress = "job.progress"
    /// ``Kind/jobFinished(_:)``.
    case jobFinished = "job.finished"
    /// ``Kind/jobFailed(_:)``.
    case jobFailed = "job.failed"
    /// ``Kind/jobCancelled(_:)``.
    case jobCancelled = "job.cancelled"
    /// ``Kind/streamReconnecting(_:)``.
    case streamReconnecting = "stream.reconnecting"
    /// ``Kind/webSocketOpened(_:)``.
    case webSocketOpened = "websocket.opened"
    /// ``Kind/webSocketMessage(_:)``.
    case webSocketMessage = "websocket.message"
    /// ``Kind/webSocketClosed(_:)``.
    case webSocketClosed = "websocket.closed"
    /// ``Kind/durableJob(_:)``.
    case durableJob = "durable.job"
    /// ``Kind/journalRepaired(_:)``.
    case journalRepaired = "durable.journal"
    /// ``Kind/notice(_:)``.
    case notice = "notice"
    /// ``Kind/connectivityChanged(_:)``.
    case connectivityChanged = "connectivity.changed"
    /// ``Kind/requestWaitingForConnectivity(_:)``.
    case requestWaitingForConnectivity = "request.waitingForConnectivity"
  }

  /// The stable name of the event's kind, e.g. `request.created`.
  public var name: Name {
    switch kind {
    case .requestCreated: .requestCreated
    case .requestAdapted: .requestAdapted
    case .requestSent: .requestSent
    case .requestRetried: .requestRetried
    case .responseReceived: .responseReceived
    case .decisionTaken: .decisionTaken
    case .requestFinished: .requestFinished
    case .requestFailed: .requestFailed
    case .requestCancelled: .requestCancelled
    case .jobStarted: .jobStarted
    case .jobProgress: .jobProgress
    case .jobFinished: .jobFinished
    case .jobFailed: .jobFailed
    case .jobCancelled: .jobCancelled
    case .streamReconnecting: .streamReconnecting
    case .webSocketOpened: .webSocketOpened
    case .webSocketMessage: .webSocketMessage
    case .webSocketClosed: .webSocketClosed
    case .durableJob: .durableJob
    case .journalRepaired: .journalRepaired
    case .notice: .notice
    case .connectivityChanged: .connectivityChanged
    case .requestWaitingForConnectivity: .requestWaitingForConnectivity
    }
  }

  /// The call the event is about: set for every `request.*`, `response.*`, `decision.*` and
  /// `websocket.*` event and for `stream.reconnecting`; `nil` for job events, notices and
  /// connectivity changes.
  public var call: CallIdentity? {
    switch kind {
    case .requestCreated(let event): event.call
    case .requestAdapted(let event): event.call
    case .requestSent(let event): event.call
    case .requestRetried(let event): event.call
    case .responseReceived(let event): event.call
    case .decisionTaken(let event): event.call
    case .requestFinished(let event): event.call
    case .requestFailed(let event): event.call
    case .requestCancelled(let event): event.call
    case .streamReconnecting(let event): event.call
    case .webSocketOpened(let event): event.call
    case .webSocketMessage(let event): event.call
    case .webSocketClosed(let event): event.call
    case .requestWaitingForConnectivity(let event): event.call
    case .jobStarted, .jobProgress, .jobFinished, .jobFailed, .jobCancelled, .notice,
      .connectivityChanged, .durableJob, .journalRepaired:
      nil
    }
  }

  /// The job the event is about: set for every `job.*` event; `nil` for the others (a call made
  /// by a job names it in ``CallIdentity/jobID``).
  public var job: JobIdentity? {
    switch kind {
    case .jobStarted(let event): event.job
    case .jobProgress(let event): event.job
    case .jobFinished(let event): event.job
    case .jobFailed(let event): event.job
    case .jobCancelled(let event): event.job
    default: nil
    }
  }

  /// Whether this event ends a call: finished, failed or cancelled.
  public var endsRequest: Bool {
    switch kind {
    case .requestFinished, .requestFailed, .requestCancelled: true
    default: false
    }
  }
}
