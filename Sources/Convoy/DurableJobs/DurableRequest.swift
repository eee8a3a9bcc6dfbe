import Foundation

/// A request a ``DurableJobQueue`` can keep: stored as JSON when its job is accepted and decoded
/// again, maybe by a later run of the app, when it is sent.
///
/// ```swift
/// struct PlaceOrder: DurableRequest {
///   static let durableName = "place-order"
///   typealias Response = EmptyResponse
///   let itemID: Int
///   var method: HTTPMethod { .post }
///   var path: String { "orders" }
///   var body: RequestBody? { .json(["item": itemID]) }
/// }
/// ```
///
/// Register each type with ``DurableJobQueue/register(_:)`` before the queue starts: a job whose
/// steps the app cannot decode later is refused when it is added, never accepted and lost.
public protocol DurableRequest: RequestDescribing, Codable {
  /// The name the request is stored under: keep it when the type is renamed, and change it when
  /// the stored form changes in a way older records cannot be decoded as.
  static var durableName: String { get }
}
