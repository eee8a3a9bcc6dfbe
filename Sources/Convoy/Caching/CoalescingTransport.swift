import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that sends identical `GET` and `HEAD` requests in flight at the same time only
/// once: every caller gets the one answer.
///
/// Requests are identical when method, URL and every header (names case-insensitive) match, so
/// calls signed for different users never share an answer. One caller cancelling ends only its
/// own wait; the shared transfer is cancelled when every caller has cancelled. A `POST`, `PUT`,
/// `PATCH` or `DELETE` to a URL closes the flights for that URL to new callers, so a read
/// started after a write never receives an answer that was on its way before it.
public final class CoalescingTransport: HTTPTransport {
  /// The transport that reaches the network.
  public let transport: any HTTPTransport
  private let flights = Locked<[String: Flight]>([:])

  /// One shared transfer; its fields change only under `flights`' lock.
  private final class Flight: @unchecked Sendable {
    let url: String
    var callers: [ObjectIdentifier: PendingTransfer] = [:]
    /// Stops the shared transfer once every caller has left.
    let cancellation = TransferCancellation()
    var isAbandoned = false
    /// The caller whose request started the transfer; the others' answers are coalesced.
    var leader: ObjectIdentifier?

    init(url: String) {
      self.url = url
    }
  }

  /// Creates a coalescing transport around `transport`.
  public init(wrapping transport: any HTTPTransport) {
    self.transport = transport
  }

  /// Joins an identical transfer already in flight, or starts one. A stream is its own transfer,
  /// since each reader consumes its body at its own pace.
  public nonisolated(nonsending) func send(_ request: TransportRequest)
    async throws(TransportFailure) -> TransportAnswer
  {
    let method = HTTPMethod(rawValue: request.urlRequest.httpMethod ?? "GET")
    guard method == .get || method == .head, request.answerDelivery == .whole,
      request.urlRequest.httpBody == nil, request.bodyFileURL == nil, request.bodyStream == nil
    else {
      if !method.isSafe { closeFlights(for: request.urlRequest.url?.absoluteString ?? "") }
      return try await transport.send(request)
    }
    return try await CallbackTransfer.whole(request) { join(request, completion: $0) }
  }

  /// Adds a caller to the flight for `request`, starting it when there is none: the shared
  /// transfer runs in a task of its own, so that no one caller's cancellation stops it.
  func join(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    let key = Self.key(for: request)
    let url = request.urlRequest.url?.absoluteString ?? ""
    let (flight, caller, isNew) = flights.withLock { flights in
      let flight = flights[key] ?? Flight(url: url)
      let isNew = flights[key] == nil
      flights[key] = flight
      let caller = PendingTransfer(completion: completion) { [weak self, weak flight] in
        guard let self, let flight else { return }
        self.leave(flight, key: key)
      }
      flight.callers[ObjectIdentifier(caller)] = caller
      if isNew { flight.leader = ObjectIdentifier(caller) }
      return (flight, caller, isNew)
    }
    guard isNew else { return caller }
    var shared = request
    shared.cancellation = flight.cancellation
    Task { [transport] in
      let result: Result<TransportResponse, TransportFailure>
      do throws(TransportFailure) {
        result = .success(
          try await transport.send(shared).collected(within: shared.responseLimits))
      } catch {
        result = .failure(error)
      }
      self.land(flight, key: key, result: result)
    }
    return caller
  }

  private func land(
    _ flight: Flight, key: String, result: Result<TransportResponse, TransportFailure>
  ) {
    let (callers, leader) = flights.withLock { flights in
      if flights[key] === flight { flights[key] = nil }
      defer { flight.callers = [:] }
      return (flight.callers, flight.leader)
    }
    for (identity, caller) in callers {
      guard identity != leader, case .success(var shared) = result else {
        caller.complete(result)
        continue
      }
      shared.metrics.isCoalesced = true
      caller.complete(.success(shared))
    }
  }

  /// Called once a caller has cancelled; the last one out cancels the shared transfer.
  private func leave(_ flight: Flight, key: String) {
    let abandoned = flights.withLock { flights -> Bool in
      flight.callers = flight.callers.filter { $0.value.isWaiting }
      guard flight.callers.isEmpty, !flight.isAbandoned else { return false }
      flight.isAbandoned = true
      if flights[key] === flight { flights[key] = nil }
      return true
    }
    if abandoned { flight.cancellation.cancel() }
  }

  private func closeFlights(for url: String) {
    flights.withLock { flights in flights = flights.filter { $0.value.url != url } }
  }

  private static func key(for request: TransportRequest) -> String {
    let headers = (request.urlRequest.allHTTPHeaderFields ?? [:])
      .map { ($0.key.lowercased(), $0.value) }
      .sorted { $0.0 < $1.0 }
      .map { "\($0.0):\($0.1)" }
    return
      ([request.urlRequest.httpMethod ?? "GET", request.urlRequest.url?.absoluteString ?? ""]
      + headers).joined(separator: "\n")
  }
}
