#if os(Linux)
  import Foundation

  /// A request's fields as libcurl's header list (`CURLOPT_HTTPHEADER`), freed when the last
  /// transfer using it (and ``CurlHeaderListMemo``) let it go.
  ///
  /// libcurl reads the list during a transfer without copying it, and only on the transport's
  /// thread, so transfers sending the same fields may share one list.
  final class CurlHeaderList: @unchecked Sendable {
    /// The list to hand libcurl; never `nil` in practice, since every list carries at least the
    /// `Expect:` or `Content-Type:` line.
    let pointer: CurlLibrary.SList?
    private let library: CurlLibrary

    /// Builds the list for `fields`, adding what libcurl needs told: the `User-Agent` when the
    /// fields have none, and lines that stop libcurl from adding `Expect` and `Content-Type` of
    /// its own.
    init(fields: [String: String], defaultUserAgent: String, library: CurlLibrary) {
      self.library = library
      var list: CurlLibrary.SList?
      var hasUserAgent = false
      var hasExpect = false
      var hasContentType = false
      for (name, value) in fields {
        // A line break inside a field would let a value smuggle in headers of its own.
        guard !Self.hasLineBreak(name), !Self.hasLineBreak(value) else { continue }
        // libcurl writes the length of the body it sends; a second one would break framing.
        if Self.name(name, is: "content-length") { continue }
        if Self.name(name, is: "user-agent") {
          hasUserAgent = true
        } else if Self.name(name, is: "expect") {
          hasExpect = true
        } else if Self.name(name, is: "content-type") {
          hasContentType = true
        }
        // "Name;" is libcurl's spelling for a header sent with an empty value.
        list = Self.appending(name, value.isEmpty ? ";" : ": ", value, to: list, library)
      }
      // FoundationNetworking sends the same form, so servers see no difference between transports.
      if !hasUserAgent {
        list = Self.appending("User-Agent", ": ", defaultUserAgent, to: list, library)
      }
      // libcurl would otherwise wait for `100 Continue` before sending a large body.
      if !hasExpect { list = library.slistAppend(list, "Expect:") }
      // libcurl labels any body it posts `application/x-www-form-urlencoded`, even an empty one;
      // "Content-Type:" removes that, so a request the app gave no type goes without one.
      if !hasContentType { list = library.slistAppend(list, "Content-Type:") }
      pointer = list
    }

    deinit {
      library.slistFreeAll(pointer)
    }

    /// The list's lines in order, for tests (`struct curl_slist { char *data; curl_slist *next; }`).
    var lines: [String] {
      var lines: [String] = []
      var node = pointer.map(UnsafeRawPointer.init)
      while let current = node {
        lines.append(String(cString: current.load(as: UnsafePointer<CChar>.self)))
        node = current.load(
          fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self)
      }
      return lines
    }

    /// `list` with the line `name`, `separator`, `value`, written straight into a temporary C
    /// string for libcurl to copy: an interpolated `String` for each line, then a C copy of it,
    /// costs several times what libcurl's own copy costs.
    private static func appending(
      _ name: String, _ separator: StaticString, _ value: String, to list: CurlLibrary.SList?,
      _ library: CurlLibrary
    ) -> CurlLibrary.SList? {
      var name = name
      var value = value
      let count = name.utf8.count + separator.utf8CodeUnitCount + value.utf8.count
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 1) { line in
        var end = line.baseAddress!
        func write(_ bytes: UnsafeBufferPointer<UInt8>) {
          guard let start = bytes.baseAddress else { return }
          end.update(from: start, count: bytes.count)
          end += bytes.count
        }
        name.withUTF8(write)
        write(UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
        value.withUTF8(write)
        end.pointee = 0
        return line.baseAddress!.withMemoryRebound(to: CChar.self, capacity: count + 1) {
          library.slistAppend(list, $0)
        }
      }
    }

    /// Whether `name` is `lowercasedName` (ASCII) in any case, compared in place rather than
    /// through a lowercased copy of every field's name.
    private static func name(_ name: String, is lowercasedName: StaticString) -> Bool {
      guard name.utf8.count == lowercasedName.utf8CodeUnitCount else { return false }
      var expected = lowercasedName.utf8Start
      for byte in name.utf8 {
        let lowercased = expected.pointee
        guard
          byte == lowercased
            || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) && byte | 0x20 == lowercased)
        else { return false }
        expected += 1
      }
      return true
    }

    private static func hasLineBreak(_ text: String) -> Bool {
      text.utf8.contains { $0 == 10 || $0 == 13 }
    }
  }
#endif
