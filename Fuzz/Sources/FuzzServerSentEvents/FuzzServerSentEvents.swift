import Convoy
// Server-sent events: Convoy's `ServerSentEventParser` against `ReferenceEventStream`. The first
// byte of the input seeds how the rest is cut into chunks. Checks: no crash; the same events,
// last event ID and reconnection time as the reference, whole or in chunks; with a small
// `maximumEventSize`, the events before the failure are the reference's first events.
import Foundation

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  guard count > 0 else { return 0 }
  let seed = start[0]
  let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
  let expected = ReferenceEventStream.read(bytes)

  let whole = read(bytes, chunks: [bytes.count], limit: 1 << 20)
  precondition(whole.failure == nil, "a small stream went over a large limit")
  precondition(whole.reading == expected, "the parser and the reference disagree")

  let sizes = chunkSizes(total: bytes.count, seed: seed)
  let chunked = read(bytes, chunks: sizes, limit: 1 << 20)
  precondition(chunked.reading == expected, "cutting the stream into chunks changed the events")

  let limit = Int(seed % 64)
  let limited = read(bytes, chunks: sizes, limit: limit)
  if limited.failure == nil {
    precondition(limited.reading.events == expected.events, "a limit changed the events")
  } else {
    precondition(
      expected.events.starts(with: limited.reading.events), "a failing stream invented events")
  }
  return 0
}

private func read(_ bytes: [UInt8], chunks: [Int], limit: Int) -> (
  reading: EventStreamReading, failure: StreamFormatError?
) {
  var parser = ServerSentEventParser(maximumEventSize: limit)
  var reading = EventStreamReading()
  var offset = 0
  for size in chunks {
    let chunk = Data(bytes[offset..<min(bytes.count, offset + size)])
    offset += size
    do {
      reading.events += try parser.events(in: chunk).map { event in
        EventReading(
          type: event.type, data: event.data, id: event.id,
          retry: event.retry)
      }
    } catch {
      return (reading, error)
    }
  }
  if let failure = parser.failure { return (reading, failure) }
  reading.lastEventID = parser.lastEventID
  reading.reconnectionDelay = parser.reconnectionDelay
  return (reading, nil)
}

/// Chunk sizes from 1 to 16 bytes, chosen by a tiny generator seeded with `seed`.
func chunkSizes(total: Int, seed: UInt8) -> [Int] {
  var state = UInt32(seed) &* 2_654_435_761 | 1
  var sizes: [Int] = []
  var covered = 0
  while covered < total {
    state = state &* 1_103_515_245 &+ 12_345
    let size = Int((state >> 16) % 16) + 1
    sizes.append(size)
    covered += size
  }
  return sizes
}
