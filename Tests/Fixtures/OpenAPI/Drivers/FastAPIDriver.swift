import Convoy
import Foundation

// Runs requests generated from a live FastAPI document against that server:
// `FastAPIClient <port>`. Exits 0 when every value round-trips.

let port = Int(CommandLine.arguments[1])!
let connection = ServerConnection(configuration: .local(port: port))

// A protected operation without a session fails before anything is sent.
let unauthenticated = await failure {
  _ = try await connection.execute(
    FastAPIArticles.Articles.createArticle(
      body: .init(title: "x", author: .init(name: "Ann"))))
}
if case .notAuthenticated = unauthenticated as? ServerConnectionError {
} else {
  check(false, "expected notAuthenticated, got \(unauthenticated)")
}

// The OAuth2 password grant is a form body; its token signs the protected operations.
let grant = try await connection.execute(
  FastAPIArticles.Auth.login(body: .init(username: "ann", password: "pw"))
).value
guard let token = grant["access_token"] else { fatalError("no access_token in \(grant)") }
try connection.login(
  session: Session(
    clientSecret: ClientSecret(id: "driver", secret: "unused"),
    accessToken: AccessToken(value: token)))

let draft = FastAPIArticles.ArticleIn(
  title: "Hello", body: "Text", status: .inReview, tags: ["swift", "news"],
  author: .init(name: "Ann", email: nil), subtitle: nil,
  publishedOn: FastAPIArticles.CalendarDate(year: 2024, month: 5, day: 2),
  metadata: ["lang": "en"])
let created = try await connection.execute(FastAPIArticles.Articles.createArticle(body: draft))
check(created.response.statusCode == 201, "status \(created.response.statusCode)")
let article = created.value
check(article.title == "Hello" && article.status == .inReview, "\(article)")
check(article.author == FastAPIArticles.Author(name: "Ann", email: nil), "\(article.author)")
check(
  article.publishedOn?.description == "2024-05-02", "\(String(describing: article.publishedOn))")
check(article.metadata == ["lang": "en"], "\(String(describing: article.metadata))")
check(article.created == Date(timeIntervalSince1970: 1_714_566_600), "\(article.created)")

for title in ["Second", "Third"] {
  _ = try await connection.execute(
    FastAPIArticles.Articles.createArticle(
      body: .init(title: title, tags: ["swift"], author: .init(name: "Bo"))))
}

// Pagination: two pages through next_offset.
let first = try await connection.execute(
  FastAPIArticles.Articles.listArticles(tag: "swift", limit: 2)
).value
check(first.total == 3 && first.items.count == 2 && first.nextOffset == 2, "\(first)")
let second = try await connection.execute(
  FastAPIArticles.Articles.listArticles(tag: "swift", offset: first.nextOffset, limit: 2)
).value
check(second.items.map(\.title) == ["Third"] && second.nextOffset == nil, "\(second)")
// The same pages through Convoy's pagination (FastAPIPaging.swift).
var titles: [String] = []
for try await page in connection.pages(
  of: FastAPIArticles.Articles.listArticles(tag: "swift", limit: 2))
{
  titles += page.elements.map(\.title)
}
check(titles == ["Hello", "Second", "Third"], "\(titles)")
let drafts = try await connection.execute(FastAPIArticles.Articles.listArticles(status: .draft))
  .value
check(drafts.total == 2, "draft filter: \(drafts.total)")

// A documented error carries the server's message.
let missing = await failure {
  _ = try await connection.execute(FastAPIArticles.Articles.getArticle(articleId: 999))
}
check(
  ErrorMessageProvider.standard.message(for: missing)?.text == "Article 999 does not exist",
  "\(missing)")
let invalid = await failure {
  _ = try await connection.execute(FastAPIArticles.Articles.listArticles(limit: 100))
}
if case .descriptiveServerError(let message, _) = invalid as? ServerConnectionError {
  check(message.contains("50"), message)
} else {
  check(false, "expected the validation message, got \(invalid)")
}

// Multipart upload, header and boolean query parameters.
let upload = try await connection.execute(
  FastAPIArticles.Files.upload(body: .init(file: Data(repeating: 7, count: 1000), caption: "Hi"))
).value
check(upload.size == 1000 && upload.caption == "Hi" && upload.name == "file", "\(upload)")
let echo = try await connection.execute(FastAPIArticles.Misc.echo(flag: true, xRequestId: "r-1"))
  .value
check(echo == FastAPIArticles.Echo(requestId: "r-1", flag: true), "\(echo)")

let deleted = try await connection.execute(FastAPIArticles.Articles.deleteArticle(articleId: 1))
check(deleted.response.statusCode == 204, "delete status \(deleted.response.statusCode)")
print("FastAPI: every generated request round-tripped")
