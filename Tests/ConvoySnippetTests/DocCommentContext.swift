import Convoy
import ConvoyTesting
import Foundation

/// The app-side names the examples in doc comments use, so that each example compiles as it is
/// written; scripts/snippets puts every example in a function of an extension of this type.
///
/// These are an imaginary Places app's own types and values: its connection, its requests and
/// models, the screens it shows. They are compiled, never run.
enum DocCommentContext {
  // MARK: Where the app talks to

  static let connection = ServerConnection(
    configuration: ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://staging.example.com/api/")!))
  static let routes = StubRoutes()
  /// A test's mock server, for the examples of ConvoyTesting's `MockServer` scripts.
  static let server = MockServer()

  // MARK: What the person typed or picked

  struct Credentials: Sendable {
    var email: String
    var password: String
  }

  static let credentials = Credentials(email: "ada@example.com", password: password)
  static let password = "analytical-engine"
  static let photo = URL(fileURLWithPath: "/tmp/harbour.jpg")
  static let photoURL = photo
  static let destination = URL(fileURLWithPath: "/tmp/downloads/7.jpg")
  static let cachesURL = URL(fileURLWithPath: "/tmp/caches", isDirectory: true)
  static let ids = [1, 2, 3]
  static let text = "openapi: 3.1.0\ninfo:\n\ttitle: Places\n"

  // MARK: Models

  struct Place: Codable, Sendable {
    var id: Int
    var name: String
  }

  struct NewPlace: Codable, Sendable {
    var name: String
  }

  struct Profile: Codable, Sendable {
    var name: String
    var avatar: URL
  }

  struct Article: Codable, Sendable {
    var id: Int
    var title: String
  }

  struct Settings: Codable, Sendable {
    var notifications: Bool
  }

  struct Repository: Codable, Sendable {
    var name: String
  }

  struct Event: Codable, Sendable {
    var id: String
    var kind: String
  }

  struct EventPage: Codable, Sendable {
    var items: [Event]
    var nextCursor: String?
  }

  struct Totals: Codable, Sendable {
    var places: Int
  }

  struct HomeScreen: Sendable {
    var profile: Profile
    var articles: [Article]
    var settings: Settings? = nil
  }

  /// A failure of the app's own checkout, worded by an `ErrorMessageProvider` override.
  struct CheckoutError: Error {}

  // MARK: Requests

  /// A request a durable job holds (`DurableJobQueue`'s examples).
  struct PlaceOrder: DurableRequest {
    static let durableName = "place-order"
    typealias Response = EmptyResponse
    let itemID: Int
    var method: HTTPMethod { .post }
    var path: String { "orders" }
    var body: RequestBody? { .json(["item": itemID]) }
  }

  struct PlacesRequest: RequestDescribing {
    typealias Response = JSONResponse<[Place]>
    var method: HTTPMethod { .get }
    var path: String { "v2/places" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  struct ProfileRequest: RequestDescribing {
    typealias Response = JSONResponse<Profile>
    var method: HTTPMethod { .get }
    var path: String { "v1/me" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  /// The profile's picture, wherever the profile says it lives.
  struct AvatarRequest: RequestDescribing {
    typealias Response = DataResponse
    var url: URL
    var method: HTTPMethod { .get }
    var path: String { url.absoluteString }
  }

  struct ArticleRequest: RequestDescribing {
    typealias Response = JSONResponse<Article>
    var id: Int
    var method: HTTPMethod { .get }
    var path: String { "v1/articles/\(id)" }
  }

  struct ArticlesRequest: RequestDescribing {
    typealias Response = JSONResponse<[Article]>
    var method: HTTPMethod { .get }
    var path: String { "v1/articles" }
  }

  struct SettingsRequest: RequestDescribing {
    typealias Response = JSONResponse<Settings>
    var method: HTTPMethod { .get }
    var path: String { "v1/settings" }
    var authenticationRequirement: AuthenticationRequirement { .accessToken }
  }

  struct PhotoRequest: RequestDescribing {
    typealias Response = DataResponse
    var id: Int
    var method: HTTPMethod { .get }
    var path: String { "v2/places/\(id)/photo" }
  }

  struct UploadPhoto: RequestDescribing {
    typealias Response = EmptyResponse
    var file: URL
    var method: HTTPMethod { .put }
    var path: String { "v2/photos" }
    var body: RequestBody? { .file(file, contentType: "image/jpeg") }
  }

  struct FeedRequest: RequestDescribing {
    typealias Response = DataResponse
    var method: HTTPMethod { .get }
    var path: String { "v1/feed" }
  }

  struct Repositories: LinkHeaderPaginatedRequest {
    typealias Response = JSONResponse<[Repository]>
    typealias Element = Repository
    var pageURL: URL?
    var method: HTTPMethod { .get }
    var path: String { pageURL?.absoluteString ?? "orgs/swiftlang/repos" }
  }

  // MARK: Operations and jobs

  static var profile: NetworkRequestOperation<ProfileRequest> {
    connection.operation(for: ProfileRequest())
  }
  static var articles: NetworkRequestOperation<ArticlesRequest> {
    connection.operation(for: ArticlesRequest())
  }
  static var settings: NetworkRequestOperation<SettingsRequest> {
    connection.operation(for: SettingsRequest())
  }

  /// The app's login: the demo API's two-step login with what the person typed.
  struct LoginJob: Job {
    var credentials: Credentials

    func makeOperation(on connection: ServerConnection) -> ResultOperation<Session> {
      SimulatedPlacesAPI.LoginJob(email: credentials.email, password: credentials.password)
        .makeOperation(on: connection)
    }
  }

  /// The app's own store of decoded values, one JSON file per type.
  struct Store: Sendable {
    var folder: URL

    func load<Value: Decodable>(_ type: Value.Type) throws -> Value {
      let file = folder.appendingPathComponent("\(type).json")
      return try JSONDecoder().decode(type, from: Data(contentsOf: file))
    }
  }

  static let cache = Store(folder: cachesURL)

  // MARK: The app's screen

  /// Puts a value on screen.
  static func show<Value>(_ value: Value) {
    print(value)
  }
}
