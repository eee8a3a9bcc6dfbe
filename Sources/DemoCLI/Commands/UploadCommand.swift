import Convoy
import Foundation

/// `democli upload <file>`: a file, or standard input with `-`, streamed to the server in
/// constant memory with a progress bar; the server's count and SHA-256 of what arrived are shown.
enum UploadCommand: Command {
  static let spec = CommandSpec(
    name: "upload", summary: "stream a file or standard input to the server (needs a login)",
    arguments: [.init(name: "file", help: "the file to send, or - for standard input")],
    discussion: """
      The body is streamed as it is read, never held whole. A file is sent with its length and
      can be sent again (after a token renewal, say); standard input is sent chunked and only
      once. Ctrl-C stops the upload (exit 130), and the server sees it cut short.

      Examples:
        democli upload notes.txt --env staging --simulate
        tar cz logs | democli upload - --env staging --simulate
      """)

  static func run(_ context: CommandContext) async throws {
    let path = context.arguments.positionals[0]
    let source = try source(path)
    let connection = try context.connection()
    let label = path == "-" ? "Uploading standard input" : "Uploading \(path)"
    let receipt = try await context.withProgress(label) { line in
      let call = Task {
        try await connection.execute(UploadRequest(body: source.body)) { progress in
          line.update(detail: ProgressLine.bar(progress))
        }.value
      }
      return try await context.interruption.cancelling(with: { call.cancel() }) {
        try await call.value
      }
    }
    let sent = source.bytesSent()
    let name = path == "-" ? "standard input" : path
    context.output.result(
      human: "Uploaded \(name) (\(ProgressLine.format(sent))); the server received "
        + "\(receipt.bytes) bytes, SHA-256 \(receipt.sha256)",
      json: ["path": path, "bytesSent": sent, "bytes": receipt.bytes, "sha256": receipt.sha256]
        as [String: Any])
  }

  /// The body to send, and how many bytes it had once sent.
  private struct Source {
    var body: RequestBody
    var bytesSent: @Sendable () -> Int64
  }

  private static func source(_ path: String) throws(UsageError) -> Source {
    if path == "-" {
      let chunks = StandardInputChunks()
      return Source(body: .stream(chunks)) { chunks.bytesRead.current }
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
      let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
    else {
      throw .invalidValue(option: "<file>", value: path, expected: "a readable file, or -")
    }
    let url = URL(fileURLWithPath: path)
    return Source(body: .file(url)) { size.int64Value }
  }
}
