import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a stub does with one request: answer, fail as the network would, wait, or decide per
/// request.
///
/// The same answers serve ``StubTransport``, ``StubRoutes`` and ``StubURLProtocol``, so a stub
/// written for one works in the others.
public enum StubAnswer: Sendable {
  /// Answer with this status, headers and body.
  case response(status: Int, headers: HTTPHeaders, body: Data)
  /// Fail as the network would, e.g. `TransportFailure(kind: .notConnectedToInternet, …)`.
  case failure(TransportFailure)
  /// Wait, then give the other answer; cancellation ends the wait at once.
  indirect case delayed(TimeInterval, StubAnswer)
  /// Decide when the request arrives; the closure sees the request, path parameters included.
  case closure(@Sendable (StubRequest) -> StubAnswer)

  /// A JSON answer from a literal-friendly value such as `["id": 1]`.
  ///
  /// Keys are sorted so that recorded bodies and fixtures compare byte for byte.
  public static func json(_ object: Any, status: Int = 200, headers: HTTPHeaders = [:])
    -> StubAnswer
  {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
    return .response(status: status, headers: headers.withDefaultContentType(), body: data)
  }

  /// A JSON answer encoded from `value`.
  public static func encoded<Value: Encodable>(
    _ value: Value, status: Int = 200, headers: HTTPHeaders = [:],
    encoder: JSONEncoder = JSONEncoder()
  ) -> StubAnswer {
    .response(
      status: status, headers: headers.withDefaultContentType(),
      body: (try? encoder.encode(value)) ?? Data())
  }

  /// An answer with a status and no body.
  public static func status(_ status: Int, headers: HTTPHeaders = [:]) -> StubAnswer {
    .response(status: status, headers: headers, body: Data())
  }

  /// An answer whose body is a fixture file, read each time the stub answers so that a missing
  /// fixture fails the call that needs it (with `TransportFailure/Kind/fileUnreadable`)
  /// rather than the test's set-up.
  ///
  /// A `.json` file is sent as `application/json` unless `headers` names a `Content-Type`.
  public static func file(_ url: URL, status: Int = 200, headers: HTTPHeaders = [:])
    -> StubAnswer
  {
    var headers = headers
    if url.pathExtension.lowercased() == "json" { headers = headers.withDefaultContentType() }
    return .closure { [headers] _ in
      do {
        return .response(status: status, headers: headers, body: try Data(contentsOf: url))
      } catch {
        return .failure(
          TransportFailure(kind: .fileUnreadable, detail: "stub fixture \(url.path): \(error)"))
      }
    }
  }

  /// The answers in turn, one per request; the last one repeats once the others are used.
  ///
  /// `.sequence([.status(401), .json(["ok": true])])` refuses the first call only. An empty list
  /// is a mistake in the test, so it fails every call with a `TransportFailure` saying so.
  public static func sequence(_ answers: [StubAnswer]) -> StubAnswer {
    guard let last = answers.last else {
      return .failure(TransportFailure(kind: .other, detail: "an empty stub sequence"))
    }
    let next = Locked(0)
    return .closure { _ in
      let index = next.withLock { index in
        defer { index += 1 }
        return index
      }
      return index < answers.count ? answers[index] : last
    }
  }
}

extension HTTPHeaders {
  fileprivate func withDefaultContentType() -> HTTPHeaders {
    var headers = self
    if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
    return headers
  }
}
