import Convoy
import Foundation

/// Reports every transfer to an event observer, for `--verbose`.
///
/// Convoy's connection-wide observers come separately; until a connection takes observers this
/// decorator shows what the transport sees: each attempt sent, each answer, each failure.
/// Events redact URLs themselves, and no headers are reported.
struct EventLoggingTransport: HTTPTransport {
  let base: any HTTPTransport
  let observer: any EventObserver
  private let nextID = Locked<UInt64>(0)

  init(base: any HTTPTransport, observer: any EventObserver) {
    self.base = base
    self.observer = observer
  }

  func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    let id = nextID.withLock { id -> UInt64 in
      id += 1
      return id
    }
    let method = request.urlRequest.httpMethod ?? "GET"
    let url = request.urlRequest.url?.absoluteString
    observer.receive(ConvoyEvent(name: .requestCreated, requestID: id, method: method, url: url))
    let started = Date()
    return base.startTransfer(request) { [observer] result in
      switch result {
      case .success(let response):
        observer.receive(
          ConvoyEvent(
            name: .responseReceived, requestID: id, method: method, url: url,
            status: response.httpURLResponse.statusCode, bytes: response.data.count,
            duration: Date().timeIntervalSince(started)))
      case .failure(let failure) where failure.kind == .cancelled:
        observer.receive(ConvoyEvent(name: .requestCancelled, requestID: id))
      case .failure(let failure):
        observer.receive(
          ConvoyEvent(
            name: .requestFailed, requestID: id, method: method, url: url,
            reason: "\(failure)", errorCategory: ErrorMessageProvider.category(of: failure.kind)))
      }
      completion(result)
    }
  }
}
