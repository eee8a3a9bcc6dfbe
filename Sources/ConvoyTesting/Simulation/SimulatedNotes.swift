import Convoy
import Foundation

/// The notes the simulated Places API keeps, and the `Idempotency-Key`s it has honoured
/// (draft-ietf-httpapi-idempotency-key-header): a note posted again with a key already used is
/// not created again; the first answer is given again, marked `Idempotent-Replayed: true`.
///
/// In memory, or in a JSON file when one is given, so that the server "remembers" across
/// processes, as a real one would across a client's restarts. The file is read and written under
/// an exclusive `flock` on a `.lock` file beside it.
public final class SimulatedNotes: Sendable {
  /// A note the simulator created.
  public struct Note: Codable, Sendable, Hashable {
    /// Its number, from 1.
    public let id: Int
    /// The place it is about.
    public let place: Int
    /// What it says.
    public let text: String
    /// The `Idempotency-Key` it came with, if any.
    public let idempotencyKey: String?
  }

  private let fileURL: URL?
  private let memory = Locked<[Note]>([])

  /// Notes kept in memory, or in the JSON file at `fileURL`.
  public init(fileURL: URL? = nil) {
    self.fileURL = fileURL
  }

  /// Every note, oldest first.
  public var all: [Note] {
    (try? withNotes { $0 }) ?? []
  }

  /// `POST v2/places/{id}/notes` with `{"text": …}`: 201 with the note, or the first answer
  /// again for a key already used (422 when that key came with another note).
  func post(place: Int, text: String, idempotencyKey: String?) -> StubAnswer {
    do {
      return try withNotes { notes in
        if let key = idempotencyKey, let earlier = notes.first(where: { $0.idempotencyKey == key })
        {
          guard earlier.place == place, earlier.text == text else {
            return .json(
              ["error": true, "reason": "This Idempotency-Key was used for another note."],
              status: 422)
          }
          return Self.answer(earlier, replayed: true)
        }
        let note = Note(
          id: (notes.last?.id ?? 0) + 1, place: place, text: text, idempotencyKey: idempotencyKey)
        notes.append(note)
        return Self.answer(note, replayed: false)
      }
    } catch {
      return .json(
        ["error": true, "reason": "The notes could not be saved: \(error)"], status: 500)
    }
  }

  private static func answer(_ note: Note, replayed: Bool) -> StubAnswer {
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    if replayed { headers["Idempotent-Replayed"] = "true" }
    let body =
      (try? JSONEncoder().encode(NoteBody(id: note.id, place: note.place, text: note.text)))
    return .response(status: 201, headers: headers, body: body ?? Data())
  }

  /// What a note's answer says (the key stays the server's).
  private struct NoteBody: Encodable {
    let id: Int
    let place: Int
    let text: String
  }

  /// Runs `body` on the notes, loaded and saved again around it when they live in a file.
  private func withNotes<Result>(_ body: (inout [Note]) -> Result) throws -> Result {
    guard let fileURL else { return memory.withLock { body(&$0) } }
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    let lock = try LockFile.lock(fileURL.path + ".lock", waits: true)
    defer { LockFile.unlock(lock) }
    var notes =
      (try? Data(contentsOf: fileURL)).flatMap { try? JSONDecoder().decode([Note].self, from: $0) }
      ?? []
    let before = notes
    let result = body(&notes)
    if notes != before {
      try JSONEncoder().encode(notes).write(to: fileURL, options: .atomic)
    }
    return result
  }
}
