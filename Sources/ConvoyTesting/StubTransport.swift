import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An in-memory transport that answers from a closure and records what was sent.
///
/// ```swift
/// let transport = StubTransport { request in
///   .json(["id": 1], status: 200)
/// }
/// let connection = ServerConnection(configuration: .local(port: 8080), transport: transport)
/// ```
public final class StubTransport: HTTPTransport, @unchecked Sendable {
  /// What the stub does with one request.
  public enum Answer: Sendable {
    /// Answer with this status, headers and body.
    case response(status: Int, headers: HTTPHeaders, body: Data)
    /// Fail as the network would.
    case failure(TransportFailure)
    /// Wait, then give the other answer; cancellation ends the wait at once.
    indirect case delayed(TimeInterval, Answer)

    /// A JSON answer from a literal-friendly value.
    public static func json(_ object: Any, status: Int = 200, headers: HTTPHeaders = [:])
      -> Answer
    {
      let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
      var headers = headers
      if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
      return .response(status: status, headers: headers, body: data)
    }

    /// A JSON answer encoded from `value`.
    public static func encoded<Value: Encodable>(
      _ value: Value, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) -> Answer {
      .response(
        status: status, headers: ["Content-Type": "application/json"],
        body: (try? encoder.encode(value)) ?? Data())
    }

    /// An answer with a status and no body.
    public static func status(_ status: Int, headers: HTTPHeaders = [:]) -> Answer {
      .response(status: status, headers: headers, body: Data())
    }
  }

  private let lock = NSLock()
  private var _requests: [TransportRequest] = []
  private let respond: @Sendable (TransportRequest) -> Answer

  /// Creates a stub that answers every request with `respond`.
  public init(respond: @escaping @Sendable (TransportRequest) -> Answer) {
    self.respond = respond
  }

  /// Every request sent so far, in order.
  public var requests: [TransportRequest] {
    lock.withLock { _requests }
  }

  /// Answers from the closure, on a background queue so that callers see real asynchrony.
  public func startTransfer(
    _ request: TransportRequest,
    completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
  ) -> any TransferHandle {
    lock.withLock { _requests.append(request) }
    let transfer = StubTransfer(completion: completion)
    let answer = respond(request)
    DispatchQueue.global().async {
      transfer.deliver(answer, for: request, startDate: Date())
    }
    return transfer
  }
}

private final class StubTransfer: TransferHandle, @unchecked Sendable {
  private let lock = NSLock()
  private var completion: (@Sendable (Result<TransportResponse, TransportFailure>) -> Void)?

  init(completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void) {
    self.completion = completion
  }

  func deliver(_ answer: StubTransport.Answer, for request: TransportRequest, startDate: Date) {
    switch answer {
    case .delayed(let seconds, let next):
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        self.deliver(next, for: request, startDate: startDate)
      }
    case .failure(let failure):
      complete(.failure(failure))
    case .response(let status, let headers, let body):
      let url = request.urlRequest.url ?? URL(string: "http://stub.invalid")!
      let response = HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.dictionary)!
      complete(
        .success(
          TransportResponse(
            httpURLResponse: response, headers: headers, data: body,
            metrics: TransferMetrics(
              startDate: startDate, duration: Date().timeIntervalSince(startDate),
              bytesReceived: body.count, bytesSent: request.urlRequest.httpBody?.count ?? 0))))
    }
  }

  func cancel() {
    complete(.failure(TransportFailure(kind: .cancelled, detail: "cancelled")))
  }

  private func complete(_ result: Result<TransportResponse, TransportFailure>) {
    let completion = lock.withLock {
      defer { self.completion = nil }
      return self.completion
    }
    completion?(result)
  }
}
