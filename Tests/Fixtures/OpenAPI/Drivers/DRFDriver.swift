import Convoy
import Foundation

// Runs requests generated from a live Django REST framework (drf-spectacular) document against
// that server: `DRFClient <port>`. Exits 0 when every value round-trips.

let port = Int(CommandLine.arguments[1])!
let connection = ServerConnection(configuration: .local(port: port))

let newNote = DRFNotes.NoteRequest(
  title: "Buy milk", kind: .todo, author: .init(name: "Ann", email: nil), tags: ["home"],
  due: DRFNotes.CalendarDate(year: 2024, month: 6, day: 1), rating: nil)

// Creating needs a token; without a session Convoy refuses before sending.
let unauthenticated = await failure {
  _ = try await connection.execute(DRFNotes.Notes.notesCreate(body: newNote))
}
if case .notAuthenticated = unauthenticated as? ServerConnectionError {
} else {
  check(false, "expected notAuthenticated, got \(unauthenticated)")
}
try connection.login(
  session: Session(
    clientSecret: ClientSecret(id: "driver", secret: "unused"),
    accessToken: AccessToken(value: "secret-token")))

let note = try await connection.execute(DRFNotes.Notes.notesCreate(body: newNote)).value
check(note.id == 1 && note.title == "Buy milk" && note.kind == .todo, "\(note)")
check(note.author == DRFNotes.Author(name: "Ann", email: nil), "\(note.author)")
check(note.due?.description == "2024-06-01" && note.rating == nil, "\(note)")
check(note.created == Date(timeIntervalSince1970: 1_714_566_600), "\(note.created)")
for title in ["Two", "Three"] {
  _ = try await connection.execute(
    DRFNotes.Notes.notesCreate(
      body: .init(title: title, kind: .idea, author: .init(name: "Bo"), tags: ["home"])))
}

// Limit/offset pagination as DRF documents it.
let page = try await connection.execute(DRFNotes.Notes.notesList(limit: 2, offset: 0, tag: "home"))
  .value
check(page.count == 3 && page.results.count == 2 && page.next != nil, "\(page)")
let rest = try await connection.execute(DRFNotes.Notes.notesList(limit: 2, offset: 2, tag: "home"))
  .value
check(rest.results.map(\.title) == ["Three"] && rest.next == nil, "\(rest)")

// The same pages through Convoy's pagination (DRFPaging.swift).
var titles: [String] = []
for try await page in connection.pages(of: DRFNotes.Notes.notesList(limit: 2, tag: "home")) {
  titles += page.elements.map(\.title)
}
check(titles == ["Buy milk", "Two", "Three"], "\(titles)")

let fetched = try await connection.execute(DRFNotes.Notes.notesRetrieve(id: 2)).value
check(fetched.title == "Two" && fetched.kind == .idea, "\(fetched)")
let missing = await failure {
  _ = try await connection.execute(DRFNotes.Notes.notesRetrieve(id: 99))
}
check(
  ErrorMessageProvider.standard.message(for: missing)?.text == "Note 99 does not exist.",
  "\(missing)")

// Form and multipart bodies, header and required query parameters.
let feedback = try await connection.execute(
  DRFNotes.FeedbackOperations.feedbackCreate(body: .init(message: "Nice", stars: 4))
).value
check(feedback == DRFNotes.Feedback(message: "Nice", stars: 4), "\(feedback)")
let attachment = try await connection.execute(
  DRFNotes.Attachments.attachmentsCreate(body: .init(file: Data("hello".utf8), label: "txt"))
).value
check(attachment.size == 5 && attachment.label == "txt", "\(attachment)")
let echo = try await connection.execute(
  DRFNotes.EchoOperations.echoRetrieve(page: 3, xRequestID: "r-2")
)
.value
check(echo == DRFNotes.Echo(requestId: "r-2", page: 3), "\(echo)")
print("DRF: every generated request round-tripped")
