/// A place of the simulated Places API, as `GET v2/places` lists it.
///
/// JSON: `{"id": 1, "name": "Harbour Promenade", "city": "Hamburg", "latitude": 53.5453, "longitude": 9.9667}`.
public struct SimulatedPlace: Codable, Sendable, Hashable {
  /// The identifier used in `GET v2/places/{id}`.
  public var id: Int
  /// The place's name.
  public var name: String
  /// The city it is in.
  public var city: String
  /// Degrees north.
  public var latitude: Double
  /// Degrees east.
  public var longitude: Double

  /// Creates a place.
  public init(id: Int, name: String, city: String, latitude: Double, longitude: Double) {
    self.id = id
    self.name = name
    self.city = city
    self.latitude = latitude
    self.longitude = longitude
  }
}
