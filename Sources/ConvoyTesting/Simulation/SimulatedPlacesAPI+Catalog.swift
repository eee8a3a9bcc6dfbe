import Convoy

extension SimulatedPlacesAPI {
  /// The users who can log in: `demo@convoy.example` / `demo-password` first.
  public static let users: [SimulatedUser] = [
    SimulatedUser(email: "demo@convoy.example", password: "demo-password", name: "Demo User"),
    SimulatedUser(email: "ada@convoy.example", password: "analytical-engine", name: "Ada"),
    SimulatedUser(email: "grace@convoy.example", password: "compiler-1952", name: "Grace"),
  ]

  /// The client credentials `POST users/retrieve-client` hands to every user.
  public static let client = ClientSecret(id: "places-demo-app", secret: "simulated-client-secret")

  /// Every place, in the order `GET v2/places` lists them.
  public static let places: [SimulatedPlace] = [
    SimulatedPlace(
      id: 1, name: "Harbour Promenade", city: "Hamburg", latitude: 53.5453, longitude: 9.9667),
    SimulatedPlace(
      id: 2, name: "Old Bridge", city: "Prague", latitude: 50.0865, longitude: 14.4114),
    SimulatedPlace(
      id: 3, name: "Market Hall", city: "Rotterdam", latitude: 51.9200, longitude: 4.4868),
    SimulatedPlace(
      id: 4, name: "Botanical Garden", city: "Berlin", latitude: 52.4552, longitude: 13.3048),
    SimulatedPlace(
      id: 5, name: "Cathedral Square", city: "Cologne", latitude: 50.9413, longitude: 6.9583),
    SimulatedPlace(
      id: 6, name: "Riverside Park", city: "Vienna", latitude: 48.2406, longitude: 16.4116),
    SimulatedPlace(
      id: 7, name: "Castle Hill", city: "Budapest", latitude: 47.4960, longitude: 19.0398),
    SimulatedPlace(
      id: 8, name: "Central Library", city: "Amsterdam", latitude: 52.3760, longitude: 4.9080),
  ]
}
