import Foundation
import Testing

@testable import Convoy

/// The journal's promises: what `append` returned for is read back, in order; damage is dropped
/// and reported, never read as records and never a crash; somebody else's file is left alone.
@Suite struct RecordJournalTests {
  private let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("convoy-journal-\(UUID().uuidString)", isDirectory: true)
  private var file: URL { directory.appendingPathComponent("jobs.journal") }
  private let payloads = ["first", "second record", "third, the last"].map { Data($0.utf8) }

  private func written(_ payloads: [Data]) async throws -> Data {
    let (journal, records, recovery) = try RecordJournal.open(at: file)
    #expect(records.isEmpty)
    #expect(recovery == nil)
    for payload in payloads { try await journal.append(payload) }
    return try Data(contentsOf: file)
  }

  @Test func appendedRecordsAreReadBackInOrder() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try await written(payloads)
    let (_, records, recovery) = try RecordJournal.open(at: file)
    #expect(records == payloads)
    #expect(recovery == nil)
  }

  @Test func theFileAndItsDirectoryAreTheUsersAlone() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try await written(payloads)
    let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[
      .posixPermissions]
    #expect(fileMode as? Int == 0o600)
    #expect(directoryMode as? Int == 0o700)
  }

  @Test func aTailTornAtAnyByteDropsOnlyTheTornRecord() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let whole = try await written(payloads)
    let lastStart = whole.count - RecordJournal.encode(payloads[2]).count
    for cut in lastStart + 1..<whole.count {
      try whole.prefix(cut).write(to: file)
      let (_, records, recovery) = try RecordJournal.open(at: file)
      #expect(records == Array(payloads.prefix(2)), "cut at \(cut)")
      #expect(
        recovery == .init(droppedBytes: cut - lastStart, damagedStretches: 1, reachesEnd: true))
      // The file was written again without the torn bytes: a second opening finds nothing.
      let (journal, again, none) = try RecordJournal.open(at: file)
      #expect(again == Array(payloads.prefix(2)))
      #expect(none == nil)
      try await journal.append(Data("after".utf8))
      #expect(try RecordJournal.open(at: file).records.last == Data("after".utf8))
    }
  }

  @Test func aRecordDamagedBetweenGoodOnesIsDroppedAndTheRestKept() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    var bytes = try await written(payloads)
    let secondStart = RecordJournal.header.count + RecordJournal.encode(payloads[0]).count
    for position in [secondStart, secondStart + 5, secondStart + 9, secondStart + 14] {
      var damaged = bytes
      damaged[position] ^= 0x40
      try damaged.write(to: file)
      let (_, records, recovery) = try RecordJournal.open(at: file)
      #expect(records == [payloads[0], payloads[2]], "byte \(position) flipped")
      #expect(recovery?.damagedStretches == 1)
      #expect(recovery?.reachesEnd == false)
      #expect(recovery?.droppedBytes == RecordJournal.encode(payloads[1]).count)
    }
    bytes.append(contentsOf: [0xFF, 0x00, 0x13])
    try bytes.write(to: file)
    #expect(try RecordJournal.open(at: file).records == payloads)
  }

  @Test func aLengthTooLargeToBeTrueIsDamageNotAnAllocation() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    var bytes = try await written(payloads)
    let secondStart = RecordJournal.header.count + RecordJournal.encode(payloads[0]).count
    bytes.replaceSubrange(secondStart + 4..<secondStart + 8, with: [0xFF, 0xFF, 0xFF, 0x7F])
    try bytes.write(to: file)
    #expect(try RecordJournal.open(at: file).records == [payloads[0], payloads[2]])
  }

  @Test func anyPrefixOfAJournalOpensToAPrefixOfItsRecords() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let whole = try await written(payloads)
    for cut in 0...whole.count {
      try whole.prefix(cut).write(to: file)
      let records = try RecordJournal.open(at: file).records
      #expect(Array(payloads.prefix(records.count)) == records, "cut at \(cut)")
    }
  }

  @Test func aFileThatIsNotAJournalIsRefusedAndLeftAlone() throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let notes = Data("my notes, not a journal\n".utf8)
    try notes.write(to: file)
    #expect(throws: RecordJournal.Failure.self) { try RecordJournal.open(at: file) }
    #expect(try Data(contentsOf: file) == notes)
  }

  @Test func replacingKeepsOnlyTheGivenRecordsAndLeavesNoTemporaryFile() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try await written(payloads)
    let (journal, _, _) = try RecordJournal.open(at: file)
    try journal.replace(with: [payloads[1]])
    try await journal.append(payloads[2])
    #expect(try RecordJournal.open(at: file).records == [payloads[1], payloads[2]])
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(names == ["jobs.journal"])
    #expect(journal.fileSize == (try Data(contentsOf: file)).count)
  }

  @Test func concurrentAppendsAreAllReadBackEachCallersInOrder() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let (journal, _, _) = try RecordJournal.open(at: file)
    let callers = 8
    let appendsEach = 40
    try await withThrowingTaskGroup(of: Void.self) { group in
      for caller in 0..<callers {
        group.addTask {
          for index in 0..<appendsEach { try await journal.append(Data("\(caller):\(index)".utf8)) }
        }
      }
      try await group.waitForAll()
    }
    let records = try RecordJournal.open(at: file).records.map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(records.count == callers * appendsEach)
    for caller in 0..<callers {
      let own = records.filter { $0.hasPrefix("\(caller):") }
      #expect(own == (0..<appendsEach).map { "\(caller):\($0)" })
    }
    #expect(journal.fileSize == (try Data(contentsOf: file)).count)
  }

  @Test func eachConcurrentAppendReturnsOnlyOnceItsRecordIsInTheFile() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let (journal, _, _) = try RecordJournal.open(at: file)
    let file = file
    try await withThrowingTaskGroup(of: Void.self) { group in
      for caller in 0..<16 {
        group.addTask {
          let payload = Data("caller \(caller)".utf8)
          try await journal.append(payload)
          let records = RecordJournal.parse(try Data(contentsOf: file)).records
          #expect(records.contains(payload))
        }
      }
      try await group.waitForAll()
    }
  }

  @Test func aRecordOverTheLimitIsRefused() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let (journal, _, _) = try RecordJournal.open(at: file)
    let failure = await #expect(throws: RecordJournal.Failure.self) {
      try await journal.append(Data(count: RecordJournal.maximumRecordSize + 1))
    }
    #expect(failure?.operation == "append")
    #expect(try RecordJournal.open(at: file).records.isEmpty)
  }

  @Test func aBitFlippedAtAnyByteLosesNoIntactRecord() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let whole = try await written(payloads)
    let starts = payloads.indices.map { index in
      RecordJournal.header.count
        + payloads.prefix(index).map { RecordJournal.encode($0).count }.reduce(0, +)
    }
    for position in 0..<whole.count {
      for bit in [0, 7] {
        var damaged = whole
        damaged[position] ^= UInt8(1 << bit)
        try damaged.write(to: file)
        guard position >= RecordJournal.header.count else {
          // The header: the file is no journal any more, and is refused, not rewritten.
          #expect(throws: RecordJournal.Failure.self) { try RecordJournal.open(at: file) }
          #expect(try Data(contentsOf: file) == damaged)
          continue
        }
        let records = try RecordJournal.open(at: file).records
        // Only the record holding the flipped byte is lost; every other one is read back.
        let hit = starts.lastIndex { $0 <= position } ?? 0
        var expected = payloads
        expected.remove(at: hit)
        #expect(records == expected, "bit \(bit) of byte \(position)")
      }
    }
  }
}
