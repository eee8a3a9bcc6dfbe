import Convoy
import ConvoyTesting
import Foundation
import Testing

/// `GET v2/places`, signed with the session's token, as an app would declare it.
struct SimulatedPlacesRequest: RequestDescribing {
  typealias Response = JSONResponse<[SimulatedPlace]>
  var city: String?
  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
  var queryItems: [URLQueryItem] { city.map { [URLQueryItem(name: "city", value: $0)] } ?? [] }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// `GET v2/places/{id}`, signed.
struct SimulatedPlaceRequest: RequestDescribing {
  typealias Response = JSONResponse<SimulatedPlace>
  var id: Int
  var method: HTTPMethod { .get }
  var path: String { "v2/places/\(id)" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// A connection to a staging-like environment whose every call goes to `transport`.
func simulatedConnection(
  _ transport: any HTTPTransport,
  authentication: AuthenticationConfiguration = SimulatedPlacesAPI.authentication
) -> ServerConnection {
  ServerConnection(
    configuration: ServerConfiguration(
      environment: .staging, baseURL: URL(string: "https://staging.places.example/api/")!,
      timeout: 30, authentication: authentication),
    transport: transport)
}

/// The real login flow: client secret, then the password grant, then the session installed.
func simulatedLogIn(
  _ connection: ServerConnection, email: String = SimulatedPlacesAPI.users[0].email,
  password: String = SimulatedPlacesAPI.users[0].password
) async throws {
  try await connection.login(with: SimulatedPlacesAPI.LoginJob(email: email, password: password))
}

/// A session issued by a well-behaved simulator, for scenarios where logging in is not the point.
func issuedSession() async throws -> Session {
  let connection = simulatedConnection(SimulatedPlacesAPI())
  try await simulatedLogIn(connection)
  return try #require(connection.session)
}

extension StubRequest {
  /// The endpoint a simulator request was for, e.g. `oauth/token refresh_token`.
  var endpoint: String {
    let path = pathSegments.drop { $0 == "api" }.joined(separator: "/")
    return formBody["grant_type"].map { "\(path) \($0)" } ?? path
  }
}
