#if os(Linux)
  import Convoy
  import Foundation

  // The live channel opens like any WebSocket: the opener finds this conformance under the
  // connection's decorators. The channel itself is a real one, to the loopback server.
  extension SimulatedPlacesAPI: WebSocketChannelOpening {
    /// Connects a `CurlTransport` to the live channel's loopback server rather than to `url`'s
    /// host (path and query kept), after the scenario's effects: offline fails at once, slow
    /// waits first.
    package func openWebSocketChannel(to url: URL, timeout: TimeInterval)
      async throws(TransportFailure) -> any WebSocketChannel
    {
      switch scenario {
      case .offline:
        throw TransportFailure(kind: .notConnectedToInternet, detail: "simulated: offline")
      case .slow:
        do {
          try await clock.sleep(for: slowDelay)
        } catch {
          throw TransportFailure(kind: .cancelled, detail: "simulated: cancelled while slow")
        }
      default:
        break
      }
      let moved = try live.url(replacing: url)
      return try await live.opener().openWebSocketChannel(to: moved, timeout: timeout)
    }
  }

  extension SimulatedLiveChannel {
    /// The transport that opens the live channel's connections, made once per process.
    func opener() throws(TransportFailure) -> CurlTransport {
      let made = Self.transport.withLock { transport -> Result<CurlTransport, TransportFailure> in
        if let transport { return .success(transport) }
        do {
          let curl = try CurlTransport()
          transport = curl
          return .success(curl)
        } catch {
          return .failure(
            TransportFailure(
              kind: .notSupportedByTransport,
              detail: "simulated: the live channel needs CurlTransport: \(error)"))
        }
      }
      return try made.get()
    }

    private static let transport = Locked<CurlTransport?>(nil)
  }
#endif
