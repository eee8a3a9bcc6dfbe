#if os(Linux)
  import Convoy
  import ConvoyTesting
  import Foundation
  import Testing

  /// The simulator's live channel, `v2/updates/live`: a WebSocket to its loopback server.
  @Suite(.timeLimit(.minutes(3))) struct SimulatedLiveChannelTests {
    private static let endpoint = WebSocketEndpoint(
      path: "v2/updates/live", requiresAuthentication: true)

    @Test func itWelcomesThenSendsUpdatesAndAcknowledgesWhatItIsSent() async throws {
      let connection = simulatedConnection(SimulatedPlacesAPI(feedInterval: 0.05))
      try await simulatedLogIn(connection)
      let socket = try await connection.webSocket(Self.endpoint)
      let transcript = LiveTranscript(socket)
      #expect(await transcript.wait { $0.count >= 3 })
      let welcome = transcript.objects[0]
      #expect(welcome["type"] as? String == "welcome")
      #expect(welcome["user"] as? String == SimulatedPlacesAPI.users[0].email)
      let updates = transcript.objects.dropFirst().prefix(2)
      #expect(updates.map { $0["type"] as? String } == ["place-update", "place-update"])
      #expect(updates.map { $0["id"] as? Int } == [1, 2])
      #expect(updates.first?["name"] as? String == SimulatedPlacesAPI.places[0].name)

      try await socket.send(.text("hello, live channel"))
      #expect(
        await transcript.wait {
          $0.contains {
            $0["type"] as? String == "ack" && $0["text"] as? String == "hello, live channel"
          }
        })
      await socket.close()
      #expect(await transcript.wait(untilEnded: true))
      #expect(transcript.ending == "closed")
    }

    @Test func aSubscriptionLimitsTheUpdatesToOneCity() async throws {
      let connection = simulatedConnection(SimulatedPlacesAPI(feedInterval: 0.05))
      try await simulatedLogIn(connection)
      let socket = try await connection.webSocket(Self.endpoint)
      let transcript = LiveTranscript(socket)
      try await socket.send(.text(#"{"subscribe": "vienna"}"#))
      try await socket.send(.text(#"{"subscribe": "Atlantis"}"#))
      #expect(await transcript.wait { $0.contains { $0["type"] as? String == "error" } })
      let subscribed = try #require(
        transcript.objects.firstIndex { $0["type"] as? String == "subscribed" })
      #expect(transcript.objects[subscribed]["city"] as? String == "Vienna")
      #expect(
        transcript.objects.last { $0["type"] as? String == "error" }?["reason"] as? String
          == "There are no places in Atlantis.")
      // Every update after the subscription is Vienna's: the sixth place's, every eighth id.
      #expect(
        await transcript.wait {
          $0[subscribed...].filter { $0["type"] as? String == "place-update" }.count >= 2
        })
      let later = transcript.objects[subscribed...].filter {
        $0["type"] as? String == "place-update"
      }
      #expect(later.allSatisfy { $0["city"] as? String == "Vienna" })
      #expect(later.compactMap { $0["id"] as? Int }.allSatisfy { $0 % 8 == 6 })
      await socket.close()
    }

    @Test func whenAskedTheServerClosesWith1000AndTheReasonGiven() async throws {
      let connection = simulatedConnection(SimulatedPlacesAPI(feedInterval: 0.05))
      try await simulatedLogIn(connection)
      let socket = try await connection.webSocket(Self.endpoint)
      let transcript = LiveTranscript(socket)
      try await socket.send(.text(#"{"close": "see you"}"#))
      #expect(await transcript.wait(untilEnded: true))
      #expect(transcript.ending == "closed")
      #expect(socket.closeCode == .normalClosure)
      #expect(socket.closeReason == "see you")
    }

    @Test func withoutATokenTheUpgradeIsRefusedWith401() async throws {
      let connection = simulatedConnection(SimulatedPlacesAPI())
      do {
        _ = try await connection.webSocket(WebSocketEndpoint(path: "v2/updates/live"))
        Issue.record("the live channel opened without a token")
      } catch ServerConnectionError.httpError(let status, _) {
        #expect(status == 401)
      }
    }

    @Test func anExpiredTokenIsRenewedAndTheChannelOpens() async throws {
      let api = SimulatedPlacesAPI(scenario: .tokenExpired, feedInterval: 0.05)
      let connection = simulatedConnection(api)
      try await simulatedLogIn(connection)
      let before = try #require(connection.session?.accessToken.value)
      let socket = try await connection.webSocket(Self.endpoint)
      let transcript = LiveTranscript(socket)
      #expect(await transcript.wait { $0.first?["type"] as? String == "welcome" })
      #expect(connection.session?.accessToken.value != before)
      await socket.close()
    }

    @Test func offlineTheChannelFailsAsTheNetworkWould() async throws {
      let connection = simulatedConnection(SimulatedPlacesAPI(scenario: .offline))
      do {
        _ = try await connection.webSocket(WebSocketEndpoint(path: "v2/updates/live"))
        Issue.record("the live channel opened offline")
      } catch ServerConnectionError.transportFailed(let failure, _) {
        #expect(failure.kind == .notConnectedToInternet)
      }
    }
  }

  /// Reads a WebSocket's text messages in a task, as JSON objects, for a test to wait on.
  private final class LiveTranscript: Sendable {
    private let texts = Locked<[String]>([])
    private let end = Locked<String?>(nil)

    init(_ socket: WebSocket) {
      Task { [texts, end] in
        do {
          for try await message in socket.messages {
            if case .text(let text) = message { texts.withLock { $0.append(text) } }
          }
          end.withLock { $0 = "closed" }
        } catch {
          end.withLock { $0 = "\(error)" }
        }
      }
    }

    /// Every message so far, parsed.
    var objects: [[String: Any]] {
      texts.current.map {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:]
      }
    }

    /// How the messages ended: `closed`, or the error; `nil` while they go on.
    var ending: String? { end.current }

    func wait(until condition: ([[String: Any]]) -> Bool) async -> Bool {
      await eventually { condition(objects) }
    }

    func wait(untilEnded: Bool) async -> Bool {
      await eventually { (ending != nil) == untilEnded }
    }
  }
#endif
