import Foundation
import Testing

@testable import Convoy

private struct Tick: DurableRequest {
  static let durableName = "tick"
  typealias Response = EmptyResponse
  let number: Int
  var method: HTTPMethod { .post }
  var path: String { "ticks/\(number)" }
}

/// The journal's record format: every record comes back as written, a journal written before a
/// field existed reads with its default, and damage throws instead of crashing.
@Suite struct DurableJobRecordTests {
  private func job(_ number: Int, constraints: DurableJobConstraints = .init()) throws
    -> DurableJob
  {
    try DurableJob(
      steps: [.request(Tick(number: number)), .request(Tick(number: number + 1))],
      constraints: constraints)
  }

  private var records: [DurableJobRecord] {
    get throws {
      let id = UUID()
      return [
        .accepted([try job(1), try job(3)]),
        .accepted([
          try job(
            5,
            constraints: .init(
              notBefore: Date(timeIntervalSince1970: 1_800_000_000.25),
              expiresAt: Date(timeIntervalSince1970: 1_900_000_000), maximumAttempts: 3,
              baseDelay: 0.5, maximumDelay: 60, needsConnectivity: false))
        ]),
        .stepFinished(job: id, step: 0),
        .attemptFailed(job: id, step: 1, attempts: 4),
        .checkpoint(job: id, step: 1, state: Data("https://uploads.example/7".utf8)),
        .finished(.init(jobID: id, ending: .succeeded, finishedAt: Date())),
        .finished(.init(jobID: id, ending: .expired, finishedAt: Date())),
        .finished(
          .init(
            jobID: id,
            ending: .failed(step: 1, category: .forbidden, message: "You may not do that."),
            finishedAt: Date())),
        .forgotten(job: id),
      ]
    }
  }

  @Test func everyRecordComesBackAsWritten() throws {
    for record in try records {
      #expect(try DurableJobRecord(decoding: record.encoded()) == record)
    }
  }

  @Test func theBytesOfARecordArePinned() throws {
    // Journals on disk hold these bytes: a change here makes them unreadable. Add fields, never
    // renumber them.
    let id = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
    let bytes = [UInt8](DurableJobRecord.attemptFailed(job: id, step: 2, attempts: 300).encoded())
    let idBytes: [UInt8] = [
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE,
      0xFF,
    ]
    #expect(bytes == [3, 1, 16] + idBytes + [2, 1, 2, 3, 2, 0xAC, 0x02])
  }

  @Test func aStepsRequestIsKeptAsItsBytesNotBase64() throws {
    let step = try DurableJobStep.request(Tick(number: 12_345))
    let encoded = DurableJobRecord.accepted([DurableJob(steps: [step])]).encoded()
    #expect(encoded.range(of: Data(#"{"number":12345}"#.utf8)) != nil)
  }

  @Test func constraintsAnOlderVersionDidNotWriteGetTheirDefaults() throws {
    // A job as a version that knew only its id and steps wrote it: no constraints at all.
    let step = try DurableJobStep.request(Tick(number: 1))
    var stepFields = NumberedFieldsWriter()
    stepFields.append(1, step.requestName)
    stepFields.append(2, bytes: step.request)
    var jobFields = NumberedFieldsWriter()
    let id = UUID()
    jobFields.append(1, id)
    jobFields.append(2, stepFields)
    var recordFields = NumberedFieldsWriter()
    recordFields.append(1, jobFields)
    let record = try DurableJobRecord(decoding: Data([1] + recordFields.bytes))
    let stepWithoutKey = DurableJobStep(
      requestName: step.requestName, request: step.request, idempotencyKey: nil)
    #expect(record == .accepted([DurableJob(id: id, steps: [stepWithoutKey])]))
  }

  @Test func anUnknownKindOrAMissingFieldThrows() throws {
    #expect(throws: NumberedFields.Malformed.self) { try DurableJobRecord(decoding: Data()) }
    #expect(throws: NumberedFields.Malformed.self) { try DurableJobRecord(decoding: Data([99])) }
    // A step finished, without its step.
    var fields = NumberedFieldsWriter()
    fields.append(1, UUID())
    #expect(throws: NumberedFields.Malformed.self) {
      try DurableJobRecord(decoding: Data([2] + fields.bytes))
    }
  }

  @Test func aFailureCategoryALaterVersionAddedReadsAsUnknown() throws {
    let id = UUID()
    let finishedAt = Date(timeIntervalSinceReferenceDate: 1_000)
    var fields = NumberedFieldsWriter()
    fields.append(1, id)
    fields.append(2, finishedAt)
    fields.append(3, "failed")
    fields.append(4, 0)
    fields.append(5, "somethingNew")
    fields.append(6, "It went wrong.")
    let record = try DurableJobRecord(decoding: Data([5] + fields.bytes))
    #expect(
      record
        == .finished(
          .init(
            jobID: id, ending: .failed(step: 0, category: .unknown, message: "It went wrong."),
            finishedAt: finishedAt)))
  }

  @Test func recordsCutAtEveryByteOrWithAnyBitFlippedNeverCrash() throws {
    for record in try records.prefix(2) {
      let bytes = [UInt8](record.encoded())
      for cut in 0..<bytes.count { _ = try? DurableJobRecord(decoding: Data(bytes[..<cut])) }
      for index in bytes.indices {
        for bit in 0..<8 {
          var flipped = bytes
          flipped[index] ^= 1 << bit
          _ = try? DurableJobRecord(decoding: Data(flipped))
        }
      }
    }
  }
}
