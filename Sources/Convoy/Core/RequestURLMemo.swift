import Foundation

/// The URLs a base URL gave its most recent paths, so that a path asked for again costs a lookup
/// rather than a parse: `URL(string:)` is costly next to the rest of a call's own work.
///
/// Bounded: once it holds ``capacity`` paths it starts over, so an app whose paths never repeat
/// (an id in each) pays one insertion per call and holds at most ``capacity`` URLs.
final class RequestURLMemo: Sendable {
  /// The most paths kept at once.
  static let capacity = 256

  private let urls = Locked<[String: URL]>([:])

  /// The URL kept for `path`, or the one `make` returns, kept for next time; a `nil` is not kept.
  func url(for path: String, making make: () -> URL?) -> URL? {
    if let known = urls.withLock({ $0[path] }) { return known }
    guard let url = make() else { return nil }
    urls.withLock { urls in
      if urls.count >= Self.capacity { urls.removeAll(keepingCapacity: true) }
      urls[path] = url
    }
    return url
  }

  /// How many paths it holds.
  var count: Int { urls.withLock { $0.count } }
}
