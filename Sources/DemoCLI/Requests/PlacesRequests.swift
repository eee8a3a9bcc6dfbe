import Convoy
import Foundation

/// A place as the Places API describes it; fields beyond id and name are optional, so a server
/// that sends fewer still works.
struct Place: Codable, Sendable, Hashable {
  var id: Int
  var name: String
  var city: String?
  var latitude: Double?
  var longitude: Double?
}

/// `GET v2/places`, optionally `?city=`.
struct PlacesRequest: RequestDescribing {
  typealias Response = JSONResponse<[Place]>
  var city: String?

  var method: HTTPMethod { .get }
  var path: String { "v2/places" }
  var queryItems: [URLQueryItem] { city.map { [URLQueryItem(name: "city", value: $0)] } ?? [] }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// `GET v2/places/{id}`.
struct PlaceRequest: RequestDescribing {
  typealias Response = JSONResponse<Place>
  var id: Int

  var method: HTTPMethod { .get }
  var path: String { "v2/places/\(id)" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// `GET v2/places/{id}/photo`: the place's photo, downloaded to a file.
struct PhotoRequest: RequestDescribing {
  typealias Response = DataResponse
  var id: Int

  var method: HTTPMethod { .get }
  var path: String { "v2/places/\(id)/photo" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// `GET v2/updates`: the live feed of place updates, as server-sent events.
struct UpdatesRequest: RequestDescribing {
  typealias Response = DataResponse

  var method: HTTPMethod { .get }
  var path: String { "v2/updates" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// One event of the live feed: a place and how many visitors it has now.
struct PlaceUpdate: Codable, Sendable, Hashable {
  var id: Int
  var placeId: Int
  var name: String
  var city: String?
  var visitors: Int
  var at: String?
}

/// `POST v2/uploads`: a file's bytes, streamed; the server answers with what arrived.
struct UploadRequest: RequestDescribing {
  typealias Response = JSONResponse<UploadReceipt>
  var body: RequestBody?

  var method: HTTPMethod { .post }
  var path: String { "v2/uploads" }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// What the server says it received.
struct UploadReceipt: Decodable, Sendable {
  var bytes: Int64
  var sha256: String
}

/// `POST v2/places/{id}/notes`: a note about a place, kept by `democli queue` until delivered.
struct PostNoteRequest: DurableRequest {
  static let durableName = "democli.post-note"
  typealias Response = JSONResponse<PostedNote>
  var place: Int
  var text: String

  var method: HTTPMethod { .post }
  var path: String { "v2/places/\(place)/notes" }
  var body: RequestBody? { .json(["text": text]) }
  var authenticationRequirement: AuthenticationRequirement { .accessToken }
}

/// A note as the Places API answers it.
struct PostedNote: Codable, Sendable, Hashable {
  var id: Int
  var place: Int
  var text: String
}
