import Convoy
import ConvoyTesting
import Foundation
import Testing

// One-line expectations for an app's endpoints: the request, where it goes, and the value it
// must succeed with or the kind of failure it must end in. Each runs the whole pipeline (adapters,
// signing, redirects, retries, validation, decoding) and, when it does not get what it expects,
// records one Swift Testing issue at the caller's line saying what was sent, what came back and
// what the call produced.

// MARK: - On a mock server

/// Expects `request`, sent to `server`, to succeed with `expected`.
///
/// ```swift
/// server.enqueue(.json(place))
/// await expect(PlaceRequest(id: 7), on: server, succeedsWith: place)
/// ```
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - server: The mock server that answers it.
///   - configuration: The configuration to send with (adapters, timeout, retry policy); its base
///     URL is replaced by the server's. A local configuration when `nil`.
///   - expected: The value the response must decode to.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The response, for further checks; `nil` when the call failed.
@discardableResult
public func expect<Request: RequestDescribing, Value: Equatable & Sendable>(
  _ request: Request, on server: MockServer, configuration: ServerConfiguration? = nil,
  succeedsWith expected: Value, sourceLocation: SourceLocation = #_sourceLocation
) async -> Request.Response? where Request.Response == JSONResponse<Value> {
  let outcome = await EndpointCall.run(
    request, configuration: configuration.pointed(at: server), transport: nil,
    sent: server.sentSince)
  return outcome.check(succeedsWith: expected, sourceLocation: sourceLocation)
}

/// Expects `request`, sent to `server`, to fail with an error of `category` (as
/// `ErrorMessageProvider` sorts it, e.g. `.notFound` for a 404).
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - server: The mock server that answers it.
///   - configuration: The configuration to send with; its base URL is replaced by the server's.
///     A local configuration when `nil`.
///   - category: The category the failure must fall in.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The error, for further checks; `nil` when the call did not fail.
@discardableResult
public func expect<Request: RequestDescribing>(
  _ request: Request, on server: MockServer, configuration: ServerConfiguration? = nil,
  failsWith category: ErrorCategory, sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
  let outcome = await EndpointCall.run(
    request, configuration: configuration.pointed(at: server), transport: nil,
    sent: server.sentSince)
  return outcome.check(failsWith: category, sourceLocation: sourceLocation)
}

// MARK: - On a stub transport

/// Expects `request`, answered by `stub`, to succeed with `expected`.
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - stub: The stub transport that answers it.
///   - configuration: The configuration to send with; `.local(port: 8080)` when not given (the
///     stub answers whatever the host).
///   - expected: The value the response must decode to.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The response, for further checks; `nil` when the call failed.
@discardableResult
public func expect<Request: RequestDescribing, Value: Equatable & Sendable>(
  _ request: Request, on stub: StubTransport,
  configuration: ServerConfiguration = .local(port: 8080), succeedsWith expected: Value,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> Request.Response? where Request.Response == JSONResponse<Value> {
  let outcome = await EndpointCall.run(
    request, configuration: configuration, transport: stub, sent: stub.sentSince)
  return outcome.check(succeedsWith: expected, sourceLocation: sourceLocation)
}

/// Expects `request`, answered by `stub`, to fail with an error of `category`.
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - stub: The stub transport that answers it.
///   - configuration: The configuration to send with; `.local(port: 8080)` when not given.
///   - category: The category the failure must fall in.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The error, for further checks; `nil` when the call did not fail.
@discardableResult
public func expect<Request: RequestDescribing>(
  _ request: Request, on stub: StubTransport,
  configuration: ServerConfiguration = .local(port: 8080), failsWith category: ErrorCategory,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
  let outcome = await EndpointCall.run(
    request, configuration: configuration, transport: stub, sent: stub.sentSince)
  return outcome.check(failsWith: category, sourceLocation: sourceLocation)
}

// MARK: - On a connection

/// Expects `request`, sent on `connection` (with its session, adapters and transport), to
/// succeed with `expected`.
///
/// The report says what the call produced; what went over the wire is known only to the
/// connection's own observers, so prefer the mock-server and stub forms where they fit.
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - connection: The connection to send it on.
///   - expected: The value the response must decode to.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The response, for further checks; `nil` when the call failed.
@discardableResult
public func expect<Request: RequestDescribing, Value: Equatable & Sendable>(
  _ request: Request, on connection: ServerConnection, succeedsWith expected: Value,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> Request.Response? where Request.Response == JSONResponse<Value> {
  let outcome = await EndpointCall.run(request, on: connection)
  return outcome.check(succeedsWith: expected, sourceLocation: sourceLocation)
}

/// Expects `request`, sent on `connection`, to fail with an error of `category`.
///
/// - Parameters:
///   - request: The endpoint's request, as the app sends it.
///   - connection: The connection to send it on.
///   - category: The category the failure must fall in.
///   - sourceLocation: Where a miss is reported; the caller's line by default.
/// - Returns: The error, for further checks; `nil` when the call did not fail.
@discardableResult
public func expect<Request: RequestDescribing>(
  _ request: Request, on connection: ServerConnection, failsWith category: ErrorCategory,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
  let outcome = await EndpointCall.run(request, on: connection)
  return outcome.check(failsWith: category, sourceLocation: sourceLocation)
}

extension ServerConfiguration? {
  /// This configuration (or a local one) sending to `server`.
  fileprivate func pointed(at server: MockServer) -> ServerConfiguration {
    guard var configuration = self else {
      return ServerConfiguration(environment: .local, baseURL: server.baseURL)
    }
    configuration.baseURL = server.baseURL
    return configuration
  }
}
