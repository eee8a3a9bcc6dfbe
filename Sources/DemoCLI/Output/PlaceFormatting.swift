import Foundation

/// How places read for people and for `--json`.
enum PlaceFormatting {
  /// One line per place: id, name and city in columns.
  static func table(_ places: [Place]) -> String {
    guard !places.isEmpty else { return "No places." }
    let idWidth = places.map { String($0.id).count }.max() ?? 1
    let nameWidth = places.map(\.name.count).max() ?? 0
    return places.map { place in
      let id = String(repeating: " ", count: idWidth - String(place.id).count) + String(place.id)
      let name = place.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      return "\(id)  \(name)  \(place.city ?? "")".trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
  }

  /// A place's fields, one per line.
  static func details(_ place: Place) -> String {
    var lines = ["\(place.id)  \(place.name)"]
    if let city = place.city { lines.append("City:     \(city)") }
    if let latitude = place.latitude, let longitude = place.longitude {
      lines.append("Location: \(latitude), \(longitude)")
    }
    return lines.joined(separator: "\n")
  }

  /// A place as a JSON object; absent fields are left out.
  static func json(_ place: Place) -> [String: Any] {
    var object: [String: Any] = ["id": place.id, "name": place.name]
    object["city"] = place.city
    object["latitude"] = place.latitude
    object["longitude"] = place.longitude
    return object
  }
}
