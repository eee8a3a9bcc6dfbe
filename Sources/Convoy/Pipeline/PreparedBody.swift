import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A call's ``RequestBody`` made ready for each attempt: bytes set on the `URLRequest`, a file or
/// a stream. A temporary file is written at the first attempt, reused by retries, and removed by
/// ``discard()`` when the call ends.
final class PreparedBody {
  private let body: RequestBody?
  private var temporaryFile: URL?

  init(_ body: RequestBody?) {
    self.body = body
  }

  /// What the transport streams instead of `URLRequest.httpBody`.
  enum Streamed {
    case none
    case file(URL)
    case stream(StreamedBody)
  }

  /// Puts the body and its content type on `request`; returns what is streamed, if anything.
  ///
  /// - Throws: Whatever the body's encoder threw.
  func apply(to request: inout URLRequest) throws -> Streamed {
    guard let body else { return .none }
    var streamed = Streamed.none
    switch body.content {
    case .data(let data):
      request.httpBody = data
    case .encoded(let encode):
      request.httpBody = try encode()
    case .file(let url):
      streamed = .file(url)
    case .temporaryFile(let write):
      streamed = .file(try temporaryFile ?? writeTemporaryFile(with: write))
    case .stream(let body):
      streamed = .stream(body)
    }
    if let contentType = body.contentType, request.value(forHTTPHeaderField: "Content-Type") == nil
    {
      request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
    return streamed
  }

  /// Removes the temporary file, if one was written.
  func discard() {
    if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
    temporaryFile = nil
  }

  private func writeTemporaryFile(with write: (URL) throws -> Void) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-body-\(UUID().uuidString)")
    // Owner-only: a form may carry personal data, and the umask's default is world-readable.
    guard
      FileManager.default.createFile(
        atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
    else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
    temporaryFile = url
    try write(url)
    return url
  }
}
