import Convoy
import ConvoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Records what a streamed transfer delivers; answers `.pause` while `pausing` is set.
final class RecordingReceiver: TransferReceiver, @unchecked Sendable {
  struct Record {
    var head: HTTPResponse?
    var pieces = 0
    var bytes = Data()
    var byteCount: Int64 = 0
    var completion: Result<TransferMetrics, TransportFailure>?
    var callsAfterCompletion = 0
  }

  let record = Locked(Record())
  let pausing = Locked(false)
  /// Whether to keep the body's bytes (small bodies only) or just count them.
  let keepsBytes: Bool

  init(keepsBytes: Bool = true) {
    self.keepsBytes = keepsBytes
  }

  func transferDidReceiveHead(_ head: HTTPResponse) {
    record.withLock { $0.head = head }
  }

  func transferDidReceiveBody(_ bytes: Data) -> TransferFlow {
    record.withLock {
      if $0.completion != nil { $0.callsAfterCompletion += 1 }
      $0.pieces += 1
      $0.byteCount += Int64(bytes.count)
      if keepsBytes { $0.bytes.append(bytes) }
    }
    return pausing.current ? .pause : .proceed
  }

  func transferDidComplete(_ result: Result<TransferMetrics, TransportFailure>) {
    record.withLock {
      if $0.completion != nil { $0.callsAfterCompletion += 1 }
      $0.completion = result
    }
  }

  /// Waits (with the one bound every test wait has) until `condition` holds.
  func wait(until condition: (Record) -> Bool) async -> Bool {
    await eventually { condition(record.current) }
  }
}

/// A transport request for the simulator's `path`, signed with a token it accepts.
func signedSimulatorRequest(_ path: String, headers: [String: String] = [:]) -> TransportRequest {
  let token = SimulatedToken(
    kind: .access, subject: SimulatedPlacesAPI.users[0].email,
    expiresAt: Date().addingTimeInterval(300))
  var request = URLRequest(url: URL(string: "https://staging.places.example/api/\(path)")!)
  request.setValue("Bearer \(token.encoded)", forHTTPHeaderField: "Authorization")
  for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
  return TransportRequest(urlRequest: request)
}

/// `GET v2/places/{id}/photo`, signed.
struct SimulatedPhotoRequest: RequestDescribing {
  typealias Response = DataResponse
  var id: Int
  var method: HTTPMethod { .get }
  var path: String { "v2/places/\(id)/photo" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// `GET v2/updates`, signed.
struct SimulatedUpdatesRequest: RequestDescribing {
  typealias Response = DataResponse
  var method: HTTPMethod { .get }
  var path: String { "v2/updates" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}
