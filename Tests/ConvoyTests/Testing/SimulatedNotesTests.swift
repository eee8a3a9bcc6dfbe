import Convoy
import ConvoyTesting
import Foundation
import Testing

/// `POST v2/places/{id}/notes` with an `Idempotency-Key`.
private struct NoteRequest: RequestDescribing {
  typealias Response = EmptyResponse
  var place = 3
  var text = "Lovely at sunset"
  var key: String?
  var method: HTTPMethod { .post }
  var path: String { "v2/places/\(place)/notes" }
  var headers: HTTPHeaders { key.map { ["Idempotency-Key": $0] } ?? [:] }
  var body: RequestBody? { .json(["text": text]) }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

@Suite struct SimulatedNotesTests {
  @Test func aNoteSentTwiceWithItsKeyIsMadeOnceAndTheFirstAnswerGivenAgain() async throws {
    let notes = SimulatedNotes()
    let connection = simulatedConnection(SimulatedPlacesAPI(notes: notes))
    try await simulatedLogIn(connection)
    let first = try await connection.execute(NoteRequest(key: "k-1"))
    let second = try await connection.execute(NoteRequest(key: "k-1"))
    #expect(first.response.statusCode == 201)
    #expect(first.response.headers["Idempotent-Replayed"] == nil)
    #expect(second.response.headers["Idempotent-Replayed"] == "true")
    #expect(notes.all.map(\.text) == ["Lovely at sunset"])
    // Without a key, every sending makes a note.
    _ = try await connection.execute(NoteRequest(key: nil))
    #expect(notes.all.count == 2)
  }

  @Test func aKeyUsedForAnotherNoteIsRefused() async throws {
    let notes = SimulatedNotes()
    let connection = simulatedConnection(SimulatedPlacesAPI(notes: notes))
    try await simulatedLogIn(connection)
    _ = try await connection.execute(NoteRequest(key: "k-2"))
    await #expect(throws: ServerConnectionError.self) {
      try await connection.execute(NoteRequest(text: "something else", key: "k-2"))
    }
    #expect(notes.all.count == 1)
  }

  @Test func notesInAFileAreRememberedByTheNextSimulator() async throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-notes-\(UUID().uuidString).json")
    defer {
      try? FileManager.default.removeItem(at: file)
      try? FileManager.default.removeItem(atPath: file.path + ".lock")
    }
    let connection = simulatedConnection(SimulatedPlacesAPI(notes: SimulatedNotes(fileURL: file)))
    try await simulatedLogIn(connection)
    _ = try await connection.execute(NoteRequest(key: "k-3"))
    let later = simulatedConnection(SimulatedPlacesAPI(notes: SimulatedNotes(fileURL: file)))
    try await simulatedLogIn(later)
    let again = try await later.execute(NoteRequest(key: "k-3"))
    #expect(again.response.headers["Idempotent-Replayed"] == "true")
    #expect(SimulatedNotes(fileURL: file).all.count == 1)
  }
}
