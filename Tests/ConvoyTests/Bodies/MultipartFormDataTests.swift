import Convoy
import Foundation
import Testing

@Suite struct MultipartFormDataTests {
  private func temporaryFile(_ data: Data, name: String = "photo.jpg") throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url
  }

  @Test func encodesFieldsAndFilesAsRFC7578Says() throws {
    var form = MultipartFormData(boundary: "XyZ")
    form.append("Harbour", name: "title")
    form.append(Data([0x00, 0xFF]), name: "blob", fileName: "a.png")
    let expected =
      "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHarbour\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"a.png\"\r\n"
      + "Content-Type: image/png\r\n\r\n"
    var expectedData = Data(expected.utf8)
    expectedData.append(contentsOf: [0x00, 0xFF])
    expectedData.append(Data("\r\n--XyZ--\r\n".utf8))
    #expect(try form.encoded() == expectedData)
    #expect(form.contentType == "multipart/form-data; boundary=XyZ")
    #expect(form.contentLength == expectedData.count)
  }

  @Test func quotesAndLineBreaksInNamesCannotBreakTheHeader() throws {
    var form = MultipartFormData(boundary: "b")
    form.append(Data("x".utf8), name: "a\"b", fileName: "evil\r\nX: y.txt")
    let text = String(decoding: try form.encoded(), as: UTF8.self)
    #expect(text.contains("name=\"a%22b\"; filename=\"evil%0D%0AX: y.txt\"\r\n"))
    #expect(text.contains("Content-Type: text/plain\r\n"))
  }

  // Found by FuzzMultipart (issue #27): a type with a line break added a header line.
  @Test func lineBreaksInATypeCannotAddAHeaderLine() throws {
    var form = MultipartFormData(boundary: "b")
    form.append(Data("to".utf8), name: "file", fileName: "phona\"me\r\n", mimeType: "fi\nle.txt")
    let text = String(decoding: try form.encoded(), as: UTF8.self)
    #expect(text.contains("\r\nContent-Type: fi%0Ale.txt\r\n\r\nto\r\n"))
    #expect(form.contentLength == text.utf8.count)
  }

  // Found by FuzzMultipart in CI: a line break followed by a combining mark (U+035A) survived
  // escaping with `replacingOccurrences` on Linux, and a name added a header line.
  @Test func aLineBreakBeforeACombiningMarkCannotBreakTheHeader() throws {
    var form = MultipartFormData(boundary: "b")
    form.append(
      Data("x".utf8), name: "fi\n.e\u{35A}vt", fileName: "\nfi\n\u{35A}tvt",
      mimeType: "text/\r\u{35A}plain")
    let text = String(decoding: try form.encoded(), as: UTF8.self)
    #expect(
      text.contains(
        "name=\"fi%0A.e\u{35A}vt\"; filename=\"%0Afi%0A\u{35A}tvt\"\r\n"
          + "Content-Type: text/%0D\u{35A}plain\r\n\r\nx\r\n"))
    #expect(form.contentLength == text.utf8.count)
  }

  @Test func filesFromDiskGetTheirNameAndAGuessedType() throws {
    let url = try temporaryFile(Data("jpeg".utf8), name: "Photo.JPG")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    var form = MultipartFormData()
    form.append(fileAt: url, name: "photo")
    form.append(fileAt: url, name: "raw", fileName: "data.bin", mimeType: "application/x-raw")
    #expect(form.parts[0].fileName == "Photo.JPG")
    #expect(form.parts[0].mimeType == "image/jpeg")
    #expect(form.parts[1].mimeType == "application/x-raw")
    #expect(form.contentLength == (try form.encoded()).count)
  }

  @Test func writingToAFileGivesTheSameBytesAcrossChunkBoundaries() throws {
    // Larger than the 1 MiB read chunk; a period of 251 (prime) shows any chunk offset error.
    let bytes = Data((0..<2_500_000).map { UInt8($0 % 251) })
    let url = try temporaryFile(bytes, name: "big.bin")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    var form = MultipartFormData()
    form.append("1", name: "n")
    form.append(fileAt: url, name: "file")
    let output = url.deletingLastPathComponent().appendingPathComponent("out")
    try form.write(to: output)
    let written = try Data(contentsOf: output)
    #expect(written == (try form.encoded()))
    #expect(written.count == form.contentLength)
  }

  @Test func aMissingFileHasNoLengthAndFailsToEncode() {
    var form = MultipartFormData()
    form.append(fileAt: URL(fileURLWithPath: "/nonexistent/convoy/file.txt"), name: "f")
    #expect(form.contentLength == nil)
    #expect(throws: (any Error).self) { try form.encoded() }
  }

  @Test func smallFormsStayInMemoryAndLargeOnesGoThroughAFile() throws {
    var form = MultipartFormData()
    form.append("value", name: "field")
    let small = RequestBody.multipart(form)
    let large = RequestBody.multipart(form, memoryThreshold: 10)
    guard case .encoded = small.content, case .temporaryFile = large.content else {
      Issue.record("expected in-memory then temporary-file content")
      return
    }
    #expect(small.contentType == form.contentType)
    #expect(small.isReplayable && large.isReplayable)
  }
}
