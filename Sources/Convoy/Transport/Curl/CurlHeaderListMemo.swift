#if os(Linux)
  import Foundation

  /// The header lists of a transport's latest distinct field sets, so that calls sending the
  /// same fields (most of an app's calls: the connection's default headers, the same token)
  /// share one ``CurlHeaderList`` instead of building and freeing one each.
  ///
  /// Why: building a list (a C string and a libcurl node for each field) and freeing it again is
  /// a sizeable share of a call on curl; comparing a call's fields with those of a kept list is
  /// cheap next to it.
  ///
  /// It keeps the ``capacity`` most recently used lists; a list dropped here lives on for as
  /// long as a transfer still uses it. The lists hold what the requests held (a token in an
  /// `Authorization` field too), in the transport's memory only, until they are dropped or the
  /// transport goes.
  final class CurlHeaderListMemo: Sendable {
    /// How many field sets are kept: enough for the few kinds of call an app alternates between
    /// (a `GET`, a `POST` with its content type), few enough that a miss costs little.
    static let capacity = 4

    private let entries = Locked<[Entry]>([])

    private struct Entry {
      let fields: [String: String]
      let list: CurlHeaderList
    }

    /// The kept list for `fields`, or the one `make` builds, kept from now on.
    func list(for fields: [String: String], make: () -> CurlHeaderList) -> CurlHeaderList {
      let kept = entries.withLock { entries -> CurlHeaderList? in
        guard let index = entries.firstIndex(where: { $0.fields == fields }) else { return nil }
        if index > 0 { entries.insert(entries.remove(at: index), at: 0) }
        return entries[0].list
      }
      if let kept { return kept }
      let made = make()
      entries.withLock { entries in
        entries.insert(Entry(fields: fields, list: made), at: 0)
        if entries.count > Self.capacity { entries.removeLast() }
      }
      return made
    }
  }
#endif
