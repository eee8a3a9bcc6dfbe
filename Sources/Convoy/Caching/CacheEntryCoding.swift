import Foundation

/// The on-disk form of a ``CacheEntry``: a magic tag, the metadata as JSON, then the body as it
/// is, so a large body is neither base64-inflated nor parsed.
///
/// Layout: `CNVC` · version byte · metadata length (UInt32, big-endian) · metadata · body.
/// Anything that does not parse is reported as `nil`, never as a crash: a file cut short by a
/// power loss or written by a future version is simply a miss.
enum CacheEntryCoding {
  private static let magic = Data("CNVC".utf8)
  private static let version: UInt8 = 1
  private static let headerLength = 9

  private struct Metadata: Codable {
    var key: String
    var url: URL
    var statusCode: Int
    var headers: [[String]]
    var requestDate: Date
    var responseDate: Date
    var varying: [VaryingHeader]
  }

  private struct VaryingHeader: Codable {
    var name: String
    var value: String?
  }

  static func encode(_ entry: CacheEntry) -> Data? {
    let metadata = Metadata(
      key: entry.key, url: entry.url, statusCode: entry.statusCode,
      headers: entry.headers.fields.map { [$0.name, $0.value] },
      requestDate: entry.requestDate, responseDate: entry.responseDate,
      varying: entry.varyingRequestHeaders.map { VaryingHeader(name: $0.key, value: $0.value) })
    guard let json = try? JSONEncoder().encode(metadata), json.count <= UInt32.max else {
      return nil
    }
    var data = magic
    data.append(version)
    withUnsafeBytes(of: UInt32(json.count).bigEndian) { data.append(contentsOf: $0) }
    data.append(json)
    data.append(entry.body)
    return data
  }

  static func decode(_ data: Data) -> CacheEntry? {
    guard data.count >= headerLength, data.prefix(4) == magic,
      data[data.startIndex + 4] == version
    else { return nil }
    let lengthBytes = data[(data.startIndex + 5)..<(data.startIndex + headerLength)]
    let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
    let jsonStart = data.startIndex + headerLength
    guard length <= data.count - headerLength,
      let metadata = try? JSONDecoder().decode(
        Metadata.self, from: data[jsonStart..<(jsonStart + length)])
    else { return nil }
    let fields = metadata.headers.compactMap { pair in
      pair.count == 2 ? HTTPHeaders.Field(name: pair[0], value: pair[1]) : nil
    }
    return CacheEntry(
      key: metadata.key, url: metadata.url, statusCode: metadata.statusCode,
      headers: HTTPHeaders(fields), body: Data(data[(jsonStart + length)...]),
      requestDate: metadata.requestDate, responseDate: metadata.responseDate,
      varyingRequestHeaders: Dictionary(
        metadata.varying.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
  }
}
