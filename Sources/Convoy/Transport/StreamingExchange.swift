import Foundation

/// Opens one streamed exchange: the request, every redirect hop the policy follows, and a
/// deadline for the head to arrive. Unlike ``Exchange`` it ends when the final head is there and
/// leaves the body flowing into the returned buffer, with no deadline on it: a stream may last
/// for hours, and only the transport's idle limit bounds a silence.
enum StreamingExchange {
  /// The final hop's request, head and body.
  struct Opened {
    var request: TransportRequest
    var head: HTTPResponse
    var body: StreamBuffer
  }

  static func open(
    _ request: TransportRequest, transport: any HTTPTransport, policy: RedirectPolicy,
    headTimeout: TimeInterval, bufferCapacity: Int, clock: any ConvoyClock = .system,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
    metrics: CallMetricsRecorder? = nil
  ) async -> Result<Opened, Exchange.ExchangeFailure> {
    let deadline = clock.now.addingTimeInterval(headTimeout)
    var current = request
    var hops = 0
    while true {
      let body = StreamBuffer(capacity: bufferCapacity, uploadProgress: uploadProgress)
      // The deadline is for the head only: once the head is in, a late timer must not touch the
      // body, whichever of the two gets to the state first.
      let phase = Locked(HeadPhase.waiting)
      let timer = clock.schedule(after: deadline.timeIntervalSince(clock.now)) {
        let expires = phase.withLock { phase in
          guard phase == .waiting else { return false }
          phase = .expired
          return true
        }
        if expires { body.cancel() }
      }
      body.start(current, on: transport)
      var head = await body.head()
      timer.cancel()
      let expired = phase.withLock { phase in
        if phase == .waiting { phase = .arrived }
        return phase == .expired
      }
      if expired, case .success = head {
        // The timer won by a hair: the head arrived, but the body is already closed.
        head = .failure(TransportFailure(kind: .cancelled, detail: "the head deadline passed"))
      }
      switch head {
      case .failure(let failure):
        if expired { return .failure(.deadlinePassed(current)) }
        if failure.kind == .cancelled { return .failure(.cancelled) }
        return .failure(.transport(failure, current))
      case .success(let head):
        do {
          guard let next = try policy.nextRequest(after: current, response: head, hopsSoFar: hops)
          else { return .success(Opened(request: current, head: head, body: body)) }
          body.cancel()
          current = next
          hops += 1
          metrics?.redirected()
        } catch {
          body.cancel()
          return .failure(.transport(error, current))
        }
      }
    }
  }

  private enum HeadPhase {
    case waiting
    case arrived
    case expired
  }
}
