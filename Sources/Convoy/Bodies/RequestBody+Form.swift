import Foundation

extension RequestBody {
  /// An `application/x-www-form-urlencoded` body; see ``FormURLEncoder`` for the conventions.
  ///
  /// ```swift
  /// var body: RequestBody? { .form(["name": "Ann", "tags": ["a", "b"], "admin": true]) }
  /// ```
  ///
  /// - Parameters:
  ///   - parameters: The names and values; nested dictionaries and arrays become bracketed keys.
  ///   - encoder: How arrays, booleans and spaces are written.
  /// - Returns: The encoded body, with its content type.
  public static func form(
    _ parameters: [String: FormValue], encoder: FormURLEncoder = FormURLEncoder()
  ) -> RequestBody {
    .data(
      Data(encoder.encode(parameters).utf8),
      contentType: "application/x-www-form-urlencoded; charset=utf-8")
  }
}
