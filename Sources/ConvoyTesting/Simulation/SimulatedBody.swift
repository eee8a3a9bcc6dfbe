import Convoy
import Foundation

/// What a simulated answer's body does next, asked again each time the previous step is over.
enum SimulatedBodyStep {
  /// Send these bytes.
  case send(Data)
  /// Send nothing for this long.
  case wait(TimeInterval)
  /// The body is complete.
  case end
  /// The connection breaks off, as a server that went away would leave it.
  case drop
}

/// Makes a simulated answer's body piece by piece, so that it is never whole in memory.
///
/// Only the transfer that owns it calls it, one step at a time.
protocol SimulatedBody: AnyObject {
  func nextStep() -> SimulatedBodyStep
}

/// A body known in full, sent in one piece: error answers and small JSON.
final class FixedBody: SimulatedBody {
  private var data: Data?

  init(_ data: Data) {
    self.data = data.isEmpty ? nil : data
  }

  func nextStep() -> SimulatedBodyStep {
    guard let data else { return .end }
    self.data = nil
    return .send(data)
  }
}

/// A streamed answer of the simulator: its head, how long the head takes, and a body made when a
/// transfer starts (each transfer gets its own).
struct SimulatedStreamAnswer: Sendable {
  var result: Result<(status: Int, headers: HTTPHeaders), TransportFailure>
  var headDelay: TimeInterval = 0
  var makeBody: @Sendable () -> any SimulatedBody

  /// A buffered stub answer as a streamed one.
  init(_ answer: StubAnswer, for request: StubRequest) {
    let outcome = StubOutcome(answer, for: request)
    headDelay = outcome.delay
    switch outcome.result {
    case .success(let reply):
      result = .success((reply.status, reply.headers))
      makeBody = { FixedBody(reply.body) }
    case .failure(let failure):
      result = .failure(failure)
      makeBody = { FixedBody(Data()) }
    }
  }

  init(
    status: Int, headers: HTTPHeaders, headDelay: TimeInterval = 0,
    makeBody: @escaping @Sendable () -> any SimulatedBody
  ) {
    self.result = .success((status, headers))
    self.headDelay = headDelay
    self.makeBody = makeBody
  }

  /// The whole answer at once, for callers that buffer: every byte until the body ends or
  /// drops, without the waits. Only for bodies that end; a feed drops after a few events.
  var buffered: StubAnswer {
    switch result {
    case .failure(let failure):
      return .delayed(headDelay, .failure(failure))
    case .success(let head):
      let body = makeBody()
      var data = Data()
      loop: while true {
        switch body.nextStep() {
        case .send(let piece): data.append(piece)
        case .wait: continue
        case .end, .drop: break loop
        }
      }
      return .delayed(headDelay, .response(status: head.status, headers: head.headers, body: data))
    }
  }
}
