import Convoy
import ConvoyTesting
import Foundation
import Testing

/// The simulator's own streaming transport: pieces over time, pauses, cancellation, ranges.
@Suite struct SimulatedStreamingTests {
  private static let photoID = 3
  private static let photoSize = SimulatedPhoto.size(placeID: photoID)
  private static let photoTag = SimulatedPhoto.entityTag(placeID: photoID)

  @Test func photoBytesAreTheSameWhateverRangeTheyAreMadeIn() {
    let whole = SimulatedPhoto.bytes(placeID: 1, range: 0..<4_096)
    #expect(whole.count == 4_096)
    #expect(SimulatedPhoto.bytes(placeID: 1, range: 13..<1_001) == whole.subdata(in: 13..<1_001))
    #expect(SimulatedPhoto.bytes(placeID: 2, range: 0..<4_096) != whole)
    #expect(SimulatedPhoto.bytes(placeID: 1, range: Self.photoSize..<(Self.photoSize + 9)).isEmpty)
  }

  @Test func thePhotoStreamsWholeWithItsValidators() async throws {
    let receiver = RecordingReceiver(keepsBytes: false)
    let handle = SimulatedPlacesAPI().startStreamingTransfer(
      signedSimulatorRequest("v2/places/3/photo"), receiver: receiver)
    let finished = await receiver.wait { $0.completion != nil }
    handle.cancel()
    #expect(finished)
    let record = receiver.record.current
    let head = try #require(record.head)
    #expect(head.statusCode == 200)
    #expect(head.headers["ETag"] == Self.photoTag)
    #expect(head.headers["Accept-Ranges"] == "bytes")
    #expect(head.headers["Content-Length"] == String(Self.photoSize))
    #expect(record.byteCount == Self.photoSize)
    #expect(record.pieces > 100)
    #expect(try record.completion?.get().bytesReceived == Int(Self.photoSize))
    #expect(record.callsAfterCompletion == 0)
  }

  @Test func aRangeWithAMatchingIfRangeIsAnswered206WithTheRest() async throws {
    let start = Self.photoSize - 100_000
    let receiver = RecordingReceiver()
    _ = SimulatedPlacesAPI().startStreamingTransfer(
      signedSimulatorRequest(
        "v2/places/3/photo", headers: ["Range": "bytes=\(start)-", "If-Range": Self.photoTag]),
      receiver: receiver)
    #expect(await receiver.wait { $0.completion != nil })
    let record = receiver.record.current
    #expect(record.head?.statusCode == 206)
    #expect(
      record.head?.headers["Content-Range"]
        == "bytes \(start)-\(Self.photoSize - 1)/\(Self.photoSize)")
    #expect(record.head?.headers["Content-Length"] == "100000")
    #expect(record.bytes == SimulatedPhoto.bytes(placeID: 3, range: start..<Self.photoSize))
  }

  @Test func aRangeWhoseIfRangeNoLongerMatchesGetsTheWholePhoto() async throws {
    let receiver = RecordingReceiver(keepsBytes: false)
    let handle = SimulatedPlacesAPI().startStreamingTransfer(
      signedSimulatorRequest(
        "v2/places/3/photo", headers: ["Range": "bytes=100-", "If-Range": "\"photo-3-old\""]),
      receiver: receiver)
    #expect(await receiver.wait { $0.head != nil })
    handle.cancel()
    let head = try #require(receiver.record.current.head)
    #expect(head.statusCode == 200)
    #expect(head.headers["Content-Range"] == nil)
    #expect(head.headers["Content-Length"] == String(Self.photoSize))
  }

  @Test func aRangePastTheEndIs416() async throws {
    let receiver = RecordingReceiver()
    _ = SimulatedPlacesAPI().startStreamingTransfer(
      signedSimulatorRequest("v2/places/3/photo", headers: ["Range": "bytes=\(Self.photoSize)-"]),
      receiver: receiver)
    #expect(await receiver.wait { $0.completion != nil })
    #expect(receiver.record.current.head?.statusCode == 416)
    #expect(receiver.record.current.head?.headers["Content-Range"] == "bytes */\(Self.photoSize)")
  }

  @Test func aPausedTransferDeliversNothingUntilItIsResumed() async throws {
    let receiver = RecordingReceiver(keepsBytes: false)
    receiver.pausing.withLock { $0 = true }
    let handle = SimulatedPlacesAPI().startStreamingTransfer(
      signedSimulatorRequest("v2/places/3/photo"), receiver: receiver)
    defer { handle.cancel() }
    let transfer = try #require(handle as? SimulatedStreamingTransfer)
    #expect(await receiver.wait { $0.pieces == 1 })
    // Everything the transfer's queue was given has run, and the unpaced photo waits on no
    // clock: a piece sent despite the pause would have arrived by now.
    await transfer.settle()
    #expect(receiver.record.current.pieces == 1)
    #expect(receiver.record.current.completion == nil)
    // Each resume while the receiver still asks for a pause brings exactly one piece.
    handle.resumeReceiving()
    #expect(await receiver.wait { $0.pieces == 2 })
    await transfer.settle()
    #expect(receiver.record.current.pieces == 2)
    receiver.pausing.withLock { $0 = false }
    handle.resumeReceiving()
    #expect(await receiver.wait { $0.pieces > 10 })
  }

  @Test func cancellingStopsTheTransferAtOnceAndReportsIt() async throws {
    let receiver = RecordingReceiver(keepsBytes: false)
    // Paced on a test clock, so the transfer is surely in the middle of the body when it is
    // cancelled: each piece comes only when the test advances the clock.
    let clock = TestClock()
    let handle = SimulatedPlacesAPI(photoBytesPerSecond: 100_000, clock: clock)
      .startStreamingTransfer(signedSimulatorRequest("v2/places/3/photo"), receiver: receiver)
    let transfer = try #require(handle as? SimulatedStreamingTransfer)
    for piece in 1...2 {
      #expect(await clock.waitForWakeUps())
      clock.advance(by: 1)
      #expect(await receiver.wait { $0.pieces >= piece })
    }
    #expect(await clock.waitForWakeUps())
    handle.cancel()
    #expect(await receiver.wait { $0.completion != nil })
    let piecesAtCancel = receiver.record.current.pieces
    #expect(clock.pendingWakeUps.isEmpty, "the cancelled transfer left a wait on the clock")
    // Whatever the transfer had left falls due now, and its queue runs what it was given: a
    // piece sent after the cancel would show.
    clock.advance(by: 3_600)
    await transfer.settle()
    let record = receiver.record.current
    #expect(record.pieces == piecesAtCancel)
    #expect(record.callsAfterCompletion == 0)
    guard case .failure(let failure) = record.completion else {
      Issue.record("expected a cancellation, got \(String(describing: record.completion))")
      return
    }
    #expect(failure.kind == .cancelled)
  }

  @Test func theFeedDropsAfterItsEventsAndGoesOnAfterTheLastEventID() async throws {
    let api = SimulatedPlacesAPI(feedInterval: 0.05, feedEventsPerConnection: 3)
    let first = RecordingReceiver()
    _ = api.startStreamingTransfer(signedSimulatorRequest("v2/updates"), receiver: first)
    #expect(await first.wait { $0.completion != nil })
    let text = String(decoding: first.record.current.bytes, as: UTF8.self)
    #expect(first.record.current.head?.headers["Content-Type"] == "text/event-stream")
    #expect(text.contains("retry: 100\n"))
    #expect(text.components(separatedBy: "id: ").count == 4)
    #expect(text.contains("id: 3\nevent: place-update\ndata: {"))
    guard case .failure(let failure) = first.record.current.completion else {
      Issue.record("the feed should drop the connection")
      return
    }
    #expect(failure.kind == .networkConnectionLost)

    let second = RecordingReceiver()
    _ = api.startStreamingTransfer(
      signedSimulatorRequest("v2/updates", headers: ["Last-Event-ID": "3"]), receiver: second)
    #expect(await second.wait { $0.completion != nil })
    let resumed = String(decoding: second.record.current.bytes, as: UTF8.self)
    #expect(resumed.contains("id: 4\n") && resumed.contains("id: 6\n"))
    #expect(!resumed.contains("id: 3\n"))
  }

  @Test func theStreamedEndpointsRefuseARequestWithoutAToken() async throws {
    var request = signedSimulatorRequest("v2/updates")
    request.urlRequest.setValue(nil, forHTTPHeaderField: "Authorization")
    let receiver = RecordingReceiver()
    _ = SimulatedPlacesAPI().startStreamingTransfer(request, receiver: receiver)
    #expect(await receiver.wait { $0.completion != nil })
    #expect(receiver.record.current.head?.statusCode == 401)
    #expect(
      String(decoding: receiver.record.current.bytes, as: UTF8.self).contains("Invalid Token."))
  }

  @Test func anEventStreamRenewsTheTokenWhenTheFeedRefusesItsReconnection() async throws {
    let api = SimulatedPlacesAPI(
      scenario: .tokenExpired, feedInterval: 0.05, feedEventsPerConnection: 2)
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    var ids: [String] = []
    for try await event in connection.events(
      SimulatedUpdatesRequest(), options: EventStreamOptions(reconnectionDelay: 0.05))
    {
      ids.append(event.id ?? "")
      if ids.count == 5 { break }
    }
    #expect(ids == ["1", "2", "3", "4", "5"])
    // One renewal for the first call, one for the first reconnection.
    #expect(api.requests.filter { $0.endpoint == "oauth/token refresh_token" }.count == 2)
    #expect(api.requests.filter { $0.header("Last-Event-ID") == "2" }.count == 2)
  }

  @Test func aDownloadFromTheSimulatorResumesAPartialFile() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let destination = folder.appendingPathComponent("photo.bin")
    let api = SimulatedPlacesAPI()
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    // What an interrupted run leaves: the first bytes and the record of where they came from.
    let kept: Int64 = 1_000_000
    try SimulatedPhoto.bytes(placeID: 3, range: 0..<kept)
      .write(to: destination.appendingPathExtension("convoy-partial"))
    let record: [String: Any] = [
      "url": "https://staging.places.example/api/v2/places/3/photo", "entityTag": Self.photoTag,
      "totalBytes": Self.photoSize,
    ]
    try JSONSerialization.data(withJSONObject: record).write(
      to: destination.appendingPathExtension("convoy-partial").appendingPathExtension("json"))
    let file = try await connection.download(SimulatedPhotoRequest(id: 3), to: destination)
    #expect(file.byteCount == Self.photoSize)
    #expect(file.resumedByteCount == kept)
    let photoRequest = try #require(api.requests.last)
    #expect(photoRequest.header("Range") == "bytes=\(kept)-")
    let handle = try FileHandle(forReadingFrom: destination)
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64(Self.photoSize - 5_000))
    #expect(
      handle.readData(ofLength: 5_000)
        == SimulatedPhoto.bytes(placeID: 3, range: (Self.photoSize - 5_000)..<Self.photoSize))
  }

  @Test func aBufferedCallGetsTheFeedsEventsUntilItsFirstDrop() async throws {
    let api = SimulatedPlacesAPI(feedEventsPerConnection: 3)
    let connection = simulatedConnection(api)
    try await simulatedLogIn(connection)
    let text = String(
      decoding: try await connection.execute(SimulatedUpdatesRequest()).data, as: UTF8.self)
    #expect(text.components(separatedBy: "event: place-update").count == 4)
    #expect(text.contains("id: 3\n") && !text.contains("id: 4\n"))
  }

  @Test func cancellingWhileASlowHeadIsAwaitedEndsWithoutAHead() async throws {
    let receiver = RecordingReceiver()
    // A 30-second head: a completion well before it can only come from the cancellation.
    let handle = SimulatedPlacesAPI(scenario: .slow, slowDelay: 30).startStreamingTransfer(
      signedSimulatorRequest("v2/places/3/photo"), receiver: receiver)
    handle.cancel()
    #expect(await receiver.wait { $0.completion != nil })
    let record = receiver.record.current
    #expect(record.head == nil)
    #expect(record.pieces == 0)
    guard case .failure(let failure) = record.completion else {
      Issue.record("expected a cancellation")
      return
    }
    #expect(failure.kind == .cancelled)
  }
}
