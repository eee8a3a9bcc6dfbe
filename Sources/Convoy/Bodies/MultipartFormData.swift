import Foundation

/// A `multipart/form-data` body (RFC 7578) built from text fields and files.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Harbour", name: "title")
/// form.append(fileAt: photoURL, name: "photo")  // image/jpeg, file name from the URL
/// var body: RequestBody? { .multipart(form) }
/// ```
///
/// Files are read from disk only while the body is written, in chunks, so a large upload never
/// sits in memory whole (see ``RequestBody/multipart(_:memoryThreshold:)``). Because the bytes
/// come from disk each time, the body can be sent again for retries and redirects.
public struct MultipartFormData: Sendable {
  /// Where one part's bytes come from.
  public enum Source: Sendable, Hashable {
    /// Bytes in memory.
    case data(Data)
    /// A file on disk, read when the body is written.
    case file(URL)
  }

  /// One field or file.
  public struct Part: Sendable, Hashable {
    /// The form field's name.
    public var name: String
    /// The file name the server sees, for file parts.
    public var fileName: String?
    /// The part's `Content-Type`; `nil` sends none, which means `text/plain`.
    public var mimeType: String?
    /// The part's bytes.
    public var source: Source
  }

  /// The line that separates parts; random, so it cannot occur in the content by accident.
  public let boundary: String
  /// The parts in the order they are sent.
  public private(set) var parts: [Part] = []

  /// Creates an empty form.
  public init(boundary: String = "convoy-" + UUID().uuidString) {
    self.boundary = boundary
  }

  /// The body's `Content-Type` value, boundary included.
  public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// Appends a text field.
  public mutating func append(_ value: String, name: String) {
    parts.append(Part(name: name, fileName: nil, mimeType: nil, source: .data(Data(value.utf8))))
  }

  /// Appends bytes from memory, as a file when `fileName` is given.
  ///
  /// - Parameters:
  ///   - data: The bytes.
  ///   - name: The form field's name.
  ///   - fileName: The file name the server sees; `nil` for a plain field.
  ///   - mimeType: The type; by default guessed from `fileName`, or none for a plain field.
  public mutating func append(
    _ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil
  ) {
    let type = mimeType ?? fileName.map(MIMEType.forFileName)
    parts.append(Part(name: name, fileName: fileName, mimeType: type, source: .data(data)))
  }

  /// Appends a file from disk; it is read only when the body is written.
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - name: The form field's name.
  ///   - fileName: The file name the server sees; the URL's last component by default.
  ///   - mimeType: The type; guessed from the file name by default.
  public mutating func append(
    fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil
  ) {
    let fileName = fileName ?? url.lastPathComponent
    parts.append(
      Part(
        name: name, fileName: fileName, mimeType: mimeType ?? MIMEType.forFileName(fileName),
        source: .file(url)))
  }

  /// The encoded body's size in bytes, or `nil` when a file cannot be measured.
  public var contentLength: Int? {
    var total = closingDelimiter.count
    for part in parts {
      let size: Int?
      switch part.source {
      case .data(let data):
        size = data.count
      case .file(let url):
        size =
          (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?
          .intValue
      }
      guard let size else { return nil }
      total += header(for: part).count + size + 2
    }
    return total
  }

  /// The whole body in memory.
  ///
  /// - Throws: The error reading a file part.
  public func encoded() throws -> Data {
    var body = Data()
    try write { body.append($0) }
    return body
  }

  /// Writes the body to `url`, replacing its contents, reading files in chunks.
  ///
  /// - Throws: The error reading a file part or writing `url`.
  public func write(to url: URL) throws {
    // Created only when missing, so a file the caller made (owner-only, say) keeps its mode;
    // if creation fails, opening it below reports why.
    if !FileManager.default.fileExists(atPath: url.path) {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }
    let output = try FileHandle(forWritingTo: url)
    defer { try? output.close() }
    try output.truncate(atOffset: 0)
    try write { try output.write(contentsOf: $0) }
  }

  // Large enough to keep system calls few, small enough to never matter for memory.
  private static let chunkSize = 1 << 20

  private func write(_ sink: (Data) throws -> Void) throws {
    for part in parts {
      try sink(header(for: part))
      switch part.source {
      case .data(let data):
        try sink(data)
      case .file(let url):
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
          try sink(chunk)
        }
      }
      try sink(Data("\r\n".utf8))
    }
    try sink(closingDelimiter)
  }

  private var closingDelimiter: Data { Data("--\(boundary)--\r\n".utf8) }

  private func header(for part: Part) -> Data {
    var disposition = "form-data; name=\"\(Self.quoted(part.name))\""
    if let fileName = part.fileName {
      disposition += "; filename=\"\(Self.quoted(fileName))\""
    }
    var lines = ["--\(boundary)", "Content-Disposition: \(disposition)"]
    if let mimeType = part.mimeType {
      // A type may hold quotes (`charset="utf-8"`) but never a line break, which would end the
      // header early and let the rest pose as a header of its own (found by fuzzing).
      let type = mimeType.replacingScalars(["\r": "%0D", "\n": "%0A"])
      lines.append("Content-Type: \(type)")
    }
    return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
  }

  // The HTML standard's rule for names in multipart headers: quotes and line breaks would end
  // the header early, so they are percent-encoded; other text, non-ASCII included, stays UTF-8.
  private static func quoted(_ text: String) -> String {
    text.replacingScalars(["\"": "%22", "\r": "%0D", "\n": "%0A"])
  }
}
