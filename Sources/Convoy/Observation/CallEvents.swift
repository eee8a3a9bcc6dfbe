import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Hands one call's events to the connection's observers, stamped with the call's identity.
///
/// With no observers it does nothing at all, so an unobserved call pays for no event.
struct CallEvents: Sendable {
  let observers: [any EventObserver]
  let requestID: UInt64
  let jobID: UInt64?
  let method: HTTPMethod

  private static let lastID = Locked<UInt64>(0)

  /// A fresh identity for a call or job, unique within the process.
  static func nextID() -> UInt64 {
    lastID.withLock { id in
      id += 1
      return id
    }
  }

  init(observers: [any EventObserver], jobID: UInt64?, method: HTTPMethod) {
    self.observers = observers
    self.requestID = observers.isEmpty ? 0 : Self.nextID()
    self.jobID = jobID
    self.method = method
  }

  var isObserved: Bool { !observers.isEmpty }

  /// Sends an event named `name` whose other fields `fill` sets.
  func emit(_ name: ConvoyEvent.Name, url: URL?, _ fill: (inout ConvoyEvent) -> Void = { _ in }) {
    guard isObserved else { return }
    var event = ConvoyEvent(
      name: name, requestID: requestID, jobID: jobID, method: method.rawValue,
      url: url.map(SecretRedactor.redact))
    fill(&event)
    for observer in observers { observer.receive(event) }
  }

  /// Sends the one event that ends the call: finished, cancelled or failed.
  func emitEnd(_ error: (any Error)?, url: URL?, startedAt start: Date, status: Int? = nil) {
    let duration = Date().timeIntervalSince(start)
    guard let error else {
      emit(.requestFinished, url: url) {
        $0.duration = duration
        $0.status = status
      }
      return
    }
    if error.isCancellation {
      emit(.requestCancelled, url: url) { $0.duration = duration }
      return
    }
    emit(.requestFailed, url: url) {
      $0.duration = duration
      $0.status = (error as? ServerConnectionError)?.statusCode
      $0.reason = SecretRedactor.redact(String(describing: error))
      $0.errorCategory = ErrorMessageProvider.category(of: error)
    }
  }
}

extension ResponseDecisionOutcome {
  /// `proceed`, `restart`, `retry`, `fail` or `done`, for events.
  var name: String {
    switch self {
    case .proceed: "proceed"
    case .restart: "restart"
    case .retry: "retry"
    case .fail: "fail"
    case .done: "done"
    }
  }
}
