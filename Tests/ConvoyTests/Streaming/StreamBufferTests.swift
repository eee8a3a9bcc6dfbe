import Foundation
import Testing

@testable import Convoy

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The stream buffer's flow control: pause when full, resume at half, fail rather than grow.
@Suite(.timeLimit(.minutes(1))) struct StreamBufferTests {
  @Test func pausesWhenFullAndResumesOnceTheReaderTookHalf() async throws {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 4096)
    buffer.start { handle }
    buffer.transferDidReceiveHead(HTTPResponse(statusCode: 200, url: nil, headers: [:]))
    let piece = Data(repeating: 1, count: 1024)
    #expect(buffer.transferDidReceiveBody(piece) == .proceed)
    #expect(buffer.transferDidReceiveBody(piece) == .proceed)
    #expect(buffer.transferDidReceiveBody(piece) == .proceed)
    #expect(buffer.transferDidReceiveBody(piece) == .pause)
    _ = try await buffer.nextChunk()
    #expect(handle.resumes == 0, "3 KiB still wait: more than half of the buffer")
    _ = try await buffer.nextChunk()
    #expect(handle.resumes == 1)
    buffer.transferDidComplete(
      .success(TransferMetrics(startDate: Date(), duration: 0, bytesReceived: 4096, bytesSent: 0)))
    #expect(try await buffer.nextChunk() == piece)
    #expect(try await buffer.nextChunk() == piece)
    #expect(try await buffer.nextChunk() == nil)
  }

  @Test func aTransportThatCannotPauseEndsTheStreamInsteadOfGrowing() async throws {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 1024)
    buffer.start { handle }
    let piece = Data(repeating: 2, count: 64 << 10)
    var offered = 0
    // Ignores every pause, as FoundationNetworking must.
    while offered < 128, handle.cancels == 0 {
      _ = buffer.transferDidReceiveBody(piece)
      offered += 1
    }
    #expect(handle.cancels == 1)
    #expect(offered == 65, "4 MiB past the 1 KiB buffer, the next piece ends the transfer")
    var failure: TransportFailure?
    do {
      while try await buffer.nextChunk() != nil {}
    } catch {
      failure = error
    }
    #expect(failure?.kind == .readerTooSlow)
  }

  @Test func aReaderTooSlowIsReportedAsSuchWhenStoppingTheTransferReportsCancelledAtOnce()
    async throws
  {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 1024)
    // The worst case of URLSession's race: the cancellation arrives inside `cancel()` itself.
    handle.onCancel = { [weak buffer] in
      buffer?.transferDidComplete(
        .failure(TransportFailure(kind: .cancelled, detail: "cancelled by the caller")))
    }
    buffer.start { handle }
    let piece = Data(repeating: 3, count: 64 << 10)
    var offered = 0
    while offered < 128, handle.cancels == 0 {
      _ = buffer.transferDidReceiveBody(piece)
      offered += 1
    }
    var failure: TransportFailure?
    var bytesRead = 0
    do {
      while let chunk = try await buffer.nextChunk() { bytesRead += chunk.count }
    } catch {
      failure = error
    }
    #expect(failure?.kind == .readerTooSlow)
    #expect(bytesRead == 64 * piece.count, "the bytes that fitted are still handed over")
  }

  @Test func aCancelledReaderGetsNoMoreBufferedBytesAndTheTransferStops() async throws {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 1 << 20)
    buffer.start { handle }
    // Pieces already waiting, as when the network outran a reader on a loaded machine.
    for _ in 0..<4 { _ = buffer.transferDidReceiveBody(Data(repeating: 4, count: 1024)) }
    let reader = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await buffer.nextChunk()
    }
    await #expect(throws: TransportFailure.self) { _ = try await reader.value }
    #expect(handle.cancels == 1, "the transfer stops with the reader")
  }

  @Test func aFailureAfterSomeBytesStillHandsOverThoseBytes() async throws {
    let buffer = StreamBuffer(capacity: 1024)
    #expect(buffer.transferDidReceiveBody(Data([1, 2, 3])) == .proceed)
    buffer.transferDidComplete(
      .failure(TransportFailure(kind: .networkConnectionLost, detail: "dropped")))
    #expect(try await buffer.nextChunk() == Data([1, 2, 3]))
    await #expect(throws: TransportFailure.self) { _ = try await buffer.nextChunk() }
  }

  /// A download's buffer: what a transport that cannot pause sends past the limit goes to disk,
  /// and the reader gets every byte in order, through memory, disk and memory again.
  @Test func aBufferThatSpillsToDiskNeverRefusesAReaderAndKeepsTheOrder() async throws {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 1024, spillsToDisk: true)
    buffer.start { handle }
    // Each piece tells its place, so a piece out of order or lost shows.
    let piece = { (index: Int) in Data(repeating: UInt8(index % 251), count: 64 << 10) }
    var sent = Data()
    // 8 MiB ignoring every pause, as FoundationNetworking does: twice the 4 MiB limit.
    for index in 0..<128 {
      _ = buffer.transferDidReceiveBody(piece(index))
      sent.append(piece(index))
    }
    #expect(handle.cancels == 0, "a download's buffer must not stop the transfer")
    var received = Data()
    while received.count < sent.count, let chunk = try await buffer.nextChunk() {
      received.append(chunk)
    }
    // Once everything on disk is read, new pieces wait in memory again.
    for index in 128..<136 {
      _ = buffer.transferDidReceiveBody(piece(index))
      sent.append(piece(index))
    }
    buffer.transferDidComplete(
      .success(
        TransferMetrics(
          startDate: Date(), duration: 0, bytesReceived: sent.count, bytesSent: 0)))
    while let chunk = try await buffer.nextChunk() { received.append(chunk) }
    #expect(received.count == sent.count)
    #expect(received == sent, "the bytes came back out of order or changed")
    #expect(buffer.deliveredByteCount == Int64(sent.count))
  }

  @Test func aStreamBufferWithoutSpillingStillRefusesTheSameFlood() async throws {
    let handle = RecordingHandle()
    let buffer = StreamBuffer(capacity: 1024)
    buffer.start { handle }
    for _ in 0..<128 { _ = buffer.transferDidReceiveBody(Data(count: 64 << 10)) }
    #expect(handle.cancels == 1)
  }
}

/// Counts what the buffer asks of its transfer.
private final class RecordingHandle: StreamingTransferHandle, @unchecked Sendable {
  private let lock = NSLock()
  private var resumeCount = 0
  private var cancelCount = 0
  private var cancelAction: (@Sendable () -> Void)?

  /// Runs inside ``cancel()``, as a transport that reports its cancellation at once would.
  var onCancel: (@Sendable () -> Void)? {
    get { lock.withLock { cancelAction } }
    set { lock.withLock { cancelAction = newValue } }
  }

  var resumes: Int { lock.withLock { resumeCount } }
  var cancels: Int { lock.withLock { cancelCount } }

  func resumeReceiving() { lock.withLock { resumeCount += 1 } }
  func cancel() {
    let action = lock.withLock {
      cancelCount += 1
      return cancelAction
    }
    action?()
  }
}
