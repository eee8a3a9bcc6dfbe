import Convoy
// Multipart form bodies (RFC 7578): parts whose names, file names, types and bytes come from the
// input (NUL-separated, four fields a part). Checks: no crash; `contentLength` is the encoded
// size; and a plain reader that splits the body at the boundary finds every part again with
// its bytes unchanged and a header block that no name can break (no injected header line).
import Foundation

private let boundary = "convoy-fuzz-boundary"

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let fields = UnsafeBufferPointer(start: start, count: count)
    .split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
  var form = MultipartFormData(boundary: boundary)
  var contents: [Data] = []
  var index = 0
  while index + 3 < fields.count {
    let text = { (data: Data) in String(decoding: data, as: UTF8.self) }
    let fileName = fields[index + 1].isEmpty ? nil : text(fields[index + 1])
    let mimeType = fields[index + 2].isEmpty ? nil : text(fields[index + 2])
    form.append(
      fields[index + 3], name: text(fields[index]), fileName: fileName, mimeType: mimeType)
    contents.append(fields[index + 3])
    index += 4
  }
  guard let body = try? form.encoded() else { fatalError("an in-memory form failed to encode") }
  precondition(form.contentLength == body.count, "contentLength is not the encoded size")

  // A part whose own bytes hold the delimiter cannot be told apart by any reader.
  let delimiter = Data("\r\n--\(boundary)".utf8)
  guard !contents.contains(where: { $0.range(of: Data("--\(boundary)".utf8)) != nil }) else {
    return 0
  }
  let parts = readParts(Data("\r\n".utf8) + body, delimiter: delimiter)
  precondition(parts.count == contents.count, "the reader found another number of parts")
  for (part, content) in zip(parts, contents) {
    guard let headerEnd = part.range(of: Data("\r\n\r\n".utf8)) else {
      fatalError("a part without its blank line")
    }
    let headerLines = part[..<headerEnd.lowerBound].split(separator: 0x0A)
    precondition((1...2).contains(headerLines.count), "a name broke the part's header")
    precondition(Data(part[headerEnd.upperBound...]) == content, "a part's bytes changed")
  }
  return 0
}

/// The parts between `delimiter`s, each without the CRLF that ends its delimiter line.
private func readParts(_ body: Data, delimiter: Data) -> [Data] {
  var parts: [Data] = []
  var searchStart = body.startIndex
  var partStart: Data.Index?
  while let found = body.range(of: delimiter, in: searchStart..<body.endIndex) {
    if let partStart { parts.append(Data(body[partStart..<found.lowerBound])) }
    let rest = body[found.upperBound...]
    if rest.starts(with: Data("--".utf8)) { break }
    precondition(rest.starts(with: Data("\r\n".utf8)), "a delimiter not ending its line")
    partStart = found.upperBound + 2
    searchStart = found.upperBound + 2
  }
  return parts
}
