import Foundation

/// One thing that happened to a request or a job, for loggers, analytics and activity counters.
///
/// Events are flat values with stable names so that every observer (console, JSON lines, an
/// app's analytics) reads the same fields. URLs, headers and reasons are redacted before an
/// event is made: an observer never sees a secret.
public struct ConvoyEvent: Sendable, Hashable {
  /// What happened. The raw values are the stable names written by ``JSONLinesLogger``.
  public enum Name: String, Sendable, Hashable, CaseIterable {
    /// A call began.
    case requestCreated = "request.created"
    /// An attempt's adapters ran; ``ConvoyEvent/headers`` holds the redacted headers.
    case requestAdapted = "request.adapted"
    /// An attempt was handed to the transport.
    case requestSent = "request.sent"
    /// An attempt failed and will be sent again after ``ConvoyEvent/retryDelay``.
    case requestRetried = "request.retried"
    /// An answer arrived: status, bytes and duration.
    case responseReceived = "response.received"
    /// A decision judged the answer: ``ConvoyEvent/decision`` and ``ConvoyEvent/outcome``.
    case decisionTaken = "decision.taken"
    /// The call produced its value.
    case requestFinished = "request.finished"
    /// The call failed; ``ConvoyEvent/reason`` and ``ConvoyEvent/errorCategory`` say why.
    case requestFailed = "request.failed"
    /// The call was cancelled.
    case requestCancelled = "request.cancelled"
    /// A job began.
    case jobStarted = "job.started"
    /// A job's progress changed.
    case jobProgress = "job.progress"
    /// A job produced its output.
    case jobFinished = "job.finished"
    /// A job failed.
    case jobFailed = "job.failed"
    /// A job was cancelled.
    case jobCancelled = "job.cancelled"
    /// An event stream ended or dropped and will be opened again after
    /// ``ConvoyEvent/retryDelay``; ``ConvoyEvent/reason`` says why.
    case streamReconnecting = "stream.reconnecting"
    /// Something worth knowing that is not about one call, e.g. a transport fallback.
    case notice = "notice"
  }

  /// What happened.
  public var name: Name
  /// When it happened.
  public var date: Date
  /// The call it is about; the same for every attempt of a call.
  public var requestID: UInt64?
  /// The job it is about, or the job the call belongs to.
  public var jobID: UInt64?
  /// The job's type name.
  public var jobName: String?
  /// The request's method.
  public var method: String?
  /// The request's URL, redacted whenever it is set.
  public var url: String? {
    didSet { url = url.map(Self.redactURL) }
  }
  /// The attempt, from 1.
  public var attempt: Int?
  /// The answer's status.
  public var status: Int?
  /// Body bytes received.
  public var bytes: Int?
  /// Seconds from sending to the whole answer, or a call's or job's whole duration when it ends.
  public var duration: TimeInterval?
  /// The attempt's headers, redacted whenever they are set.
  public var headers: HTTPHeaders? {
    didSet { headers = headers.map(SecretRedactor.redact) }
  }
  /// The decision's type name.
  public var decision: String?
  /// The decision's outcome: `proceed`, `restart`, `fail` or `done`.
  public var outcome: String?
  /// Seconds before a retry is sent.
  public var retryDelay: TimeInterval?
  /// Why: a failure's developer description, a retry's reason, a notice's text; redacted
  /// whenever it is set.
  public var reason: String? {
    didSet { reason = reason.map(SecretRedactor.redact) }
  }
  /// The failure's family, as ``ErrorMessageProvider`` sorts it.
  public var errorCategory: ErrorCategory?
  /// A job's completed units.
  public var completedUnits: Int?
  /// A job's total units.
  public var totalUnits: Int?

  /// Creates an event; every field but the name is optional.
  public init(
    name: Name, date: Date = Date(), requestID: UInt64? = nil, jobID: UInt64? = nil,
    jobName: String? = nil, method: String? = nil, url: String? = nil, attempt: Int? = nil,
    status: Int? = nil, bytes: Int? = nil, duration: TimeInterval? = nil,
    headers: HTTPHeaders? = nil, decision: String? = nil, outcome: String? = nil,
    retryDelay: TimeInterval? = nil, reason: String? = nil, errorCategory: ErrorCategory? = nil,
    completedUnits: Int? = nil, totalUnits: Int? = nil
  ) {
    self.name = name
    self.date = date
    self.requestID = requestID
    self.jobID = jobID
    self.jobName = jobName
    self.method = method
    self.url = url.map(Self.redactURL)
    self.attempt = attempt
    self.status = status
    self.bytes = bytes
    self.duration = duration
    self.headers = headers.map(SecretRedactor.redact)
    self.decision = decision
    self.outcome = outcome
    self.retryDelay = retryDelay
    self.reason = reason.map(SecretRedactor.redact)
    self.errorCategory = errorCategory
    self.completedUnits = completedUnits
    self.totalUnits = totalUnits
  }

  private static func redactURL(_ text: String) -> String {
    URL(string: text).map(SecretRedactor.redact) ?? SecretRedactor.mask
  }

  /// Whether this event ends a call: finished, failed or cancelled.
  public var endsRequest: Bool {
    [.requestFinished, .requestFailed, .requestCancelled].contains(name)
  }
}
