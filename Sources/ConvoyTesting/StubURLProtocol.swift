import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `URLProtocol` that answers from ``StubRoutes``, for apps that keep `URLSession` in the loop.
///
/// Don't register it yourself: build the session's configuration with
/// `URLSessionConfiguration.stubbed(by:)`, which gives each configuration its own routes, so
/// tests running in parallel never see each other's stubs.
public class StubURLProtocol: URLProtocol {
  // On FoundationNetworking a protocol sees neither its session nor the configuration's
  // `httpAdditionalHeaders` (measured), so nothing in a request can say whose routes answer it.
  // Each configuration therefore gets a class of its own, a `RoutedStubURLProtocol<Slot>`,
  // that knows its slot, and the routes live here under that slot, with the clock their delays
  // wait on.
  private static let registry = Locked<(next: Int, slots: [Int: Stubbing])>((1, [:]))

  /// What one configuration's class answers from.
  struct Stubbing: Sendable {
    var routes: StubRoutes
    var clock: any ConvoyClock
  }

  private struct State {
    var isStopped = false
    var delivery: StubDelivery?
  }

  private let state = Locked(State())
  // Held across every call to `client` and across `stopLoading()`, so that once stopLoading
  // returns no client call is under way or can follow: FoundationNetworking drops the task right
  // after, and a late call then crashes inside it. Recursive in case a client call re-enters.
  private let clientLock = NSRecursiveLock()

  /// The routes and clock of this class's configuration; `nil` for the base class.
  class var stubbing: Stubbing? { nil }

  static func stubbing(inSlot number: Int) -> Stubbing? {
    registry.withLock { $0.slots[number] }
  }

  /// A protocol class of its own that answers from `routes`, its delays waiting on `clock`.
  static func makeClass(answeringFrom routes: StubRoutes, clock: any ConvoyClock) -> AnyClass {
    let slot = registry.withLock { registry in
      defer { registry.next += 1 }
      registry.slots[registry.next] = Stubbing(routes: routes, clock: clock)
      return registry.next
    }
    return routedClass(slotType(for: slot))
  }

  private static func routedClass<Slot: StubSlot>(_ slot: Slot.Type) -> AnyClass {
    RoutedStubURLProtocol<Slot>.self
  }

  /// Takes every request of a session built with `URLSessionConfiguration.stubbed(by:)`, so
  /// none reaches the network.
  override public class func canInit(with request: URLRequest) -> Bool {
    stubbing != nil
  }

  /// The request as it is.
  override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  /// Answers from the configuration's routes: before returning when the answer has no delay,
  /// otherwise once its delay has passed on the configuration's clock.
  override public func startLoading() {
    guard let stubbing = Self.stubbing else {
      client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
      return
    }
    let stubRequest = StubRequest(TransportRequest(urlRequest: request))
    let outcome = StubOutcome(stubbing.routes.answer(for: stubRequest), for: stubRequest)
    guard outcome.delay > 0 else {
      // Here, on the thread FoundationNetworking starts the protocol on: its session's work
      // queue, the one queue its task registry may be read on. Each client call reads it; from
      // another thread it raced with the session adding and removing its other tasks' entries,
      // and under load a lookup missed and trapped ("a task that in not in the registry").
      // FoundationNetworking's own data: URL protocol answers the same way, before returning.
      deliver(outcome.result)
      return
    }
    let reference = Reference(target: self)
    let delivery = StubDelivery(.stopWaitsForDelivery) { result in
      reference.target.deliver(result)
    }
    let isStopped = state.withLock { state in
      state.delivery = delivery
      return state.isStopped
    }
    if !isStopped { delivery.start(outcome, clock: stubbing.clock) }
  }

  /// Ends the wait for a delayed answer; after it returns the client is never called again.
  override public func stopLoading() {
    clientLock.lock()
    let delivery = state.withLock { state in
      state.isStopped = true
      return state.delivery
    }
    clientLock.unlock()
    delivery?.stop()
  }

  private func deliver(_ result: Result<StubReply, TransportFailure>) {
    clientLock.lock()
    defer { clientLock.unlock() }
    guard !state.withLock({ $0.isStopped }), let client else { return }
    switch result {
    case .success(let reply):
      client.urlProtocol(
        self, didReceive: reply.httpURLResponse(for: request.url), cacheStoragePolicy: .notAllowed)
      if !reply.body.isEmpty { client.urlProtocol(self, didLoad: reply.body) }
      client.urlProtocolDidFinishLoading(self)
    case .failure(let failure):
      client.urlProtocol(self, didFailWithError: failure.urlProtocolError)
    }
  }
}

extension URLSessionConfiguration {
  /// A configuration whose sessions answer every request from `routes` through
  /// ``StubURLProtocol``, without touching the network.
  ///
  /// Each call makes a protocol class of its own, so configurations stay independent. The
  /// routes are kept for the life of the process: the configuration may outlive every other
  /// reference to them, and route tables are small.
  /// - Parameters:
  ///   - routes: The stubs; requests no route matches fail with the "no stub" error.
  ///   - base: The configuration to start from; `.ephemeral` by default.
  ///   - clock: The clock a ``StubAnswer/delayed(_:_:)`` answer waits on: real time unless
  ///     given. Pass the connection's `TestClock`, and a delayed answer arrives when the test
  ///     advances it past the delay.
  /// - Returns: A copy of `base` with the stub protocol first in `protocolClasses`.
  public static func stubbed(
    by routes: StubRoutes, basedOn base: URLSessionConfiguration = .ephemeral,
    clock: any ConvoyClock = .system
  ) -> URLSessionConfiguration {
    let configuration = base.copy() as! URLSessionConfiguration
    configuration.protocolClasses =
      [StubURLProtocol.makeClass(answeringFrom: routes, clock: clock)]
      + (configuration.protocolClasses ?? [])
    return configuration
  }
}

/// The stub protocol of one configuration: its slot is part of its type.
private final class RoutedStubURLProtocol<Slot: StubSlot>: StubURLProtocol {
  override class var stubbing: Stubbing? { stubbing(inSlot: Slot.number) }
}

/// A number spelled as a type, binary digit by digit, so that any number of configurations can
/// each have a `URLProtocol` class of their own: `Bit0<Bit1<SlotEnd>>` is 2.
protocol StubSlot {
  static var number: Int { get }
}

private enum SlotEnd: StubSlot {
  static var number: Int { 0 }
}

private enum Bit0<Higher: StubSlot>: StubSlot {
  static var number: Int { Higher.number * 2 }
}

private enum Bit1<Higher: StubSlot>: StubSlot {
  static var number: Int { Higher.number * 2 + 1 }
}

/// The type that spells `number`; each number from 1 up gets a different type because its
/// leading digit is always `Bit1`.
private func slotType(for number: Int) -> any StubSlot.Type {
  guard number > 0 else { return SlotEnd.self }
  let higher = slotType(for: number / 2)
  return number % 2 == 0 ? bit0(after: higher) : bit1(after: higher)
}

private func bit0<Higher: StubSlot>(after _: Higher.Type) -> any StubSlot.Type {
  Bit0<Higher>.self
}

private func bit1<Higher: StubSlot>(after _: Higher.Type) -> any StubSlot.Type {
  Bit1<Higher>.self
}

/// Lets the delivery reach the protocol from a background queue. `URLProtocol` is not
/// `Sendable`, but the only state touched there is the client, which FoundationNetworking expects
/// to be called from any thread, and the delivery's lock keeps those calls apart from
/// `stopLoading`.
private struct Reference: @unchecked Sendable {
  let target: StubURLProtocol
}

/// A failure whose description is a stub's own detail, so the "no stub" listing survives the
/// trip through `URLSession` (which passes a protocol's error through as it is).
private struct StubbedFailure: Error, CustomStringConvertible {
  let description: String
}

extension TransportFailure {
  /// The error a `URLProtocol` reports so that `URLSessionTransport` maps it back to this kind:
  /// a `URLError` where one exists, the detail itself otherwise.
  fileprivate var urlProtocolError: any Error {
    let code: URLError.Code
    switch kind {
    case .cancelled: code = .cancelled
    case .timedOut: code = .timedOut
    case .notConnectedToInternet: code = .notConnectedToInternet
    case .cannotFindHost: code = .cannotFindHost
    case .cannotConnectToHost: code = .cannotConnectToHost
    case .networkConnectionLost: code = .networkConnectionLost
    case .secureConnectionFailed: code = .secureConnectionFailed
    case .clientCertificateRequired: code = .clientCertificateRequired
    case .untrustedServerCertificate: code = .serverCertificateUntrusted
    case .badServerResponse: code = .badServerResponse
    case .responseTooLarge: code = .dataLengthExceedsMaximum
    case .tooManyRedirects: code = .httpTooManyRedirects
    case .unsupportedURL: code = .unsupportedURL
    case .fileUnreadable: code = .fileDoesNotExist
    case .notCached: code = .resourceUnavailable
    case .pinnedKeyMismatch, .proxyRefused, .readerTooSlow, .requestBodyFailed,
      .notSupportedByTransport, .other:
      return StubbedFailure(description: detail)
    }
    return URLError(code)
  }
}
