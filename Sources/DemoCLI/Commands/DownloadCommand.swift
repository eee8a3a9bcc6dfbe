import Convoy
import Foundation

/// `democli download <place-id> --output FILE`: the place's photo, saved to a file with a
/// progress bar, resumed where an interrupted run stopped.
enum DownloadCommand: Command {
  /// The simulated photo's pace when `--rate` is not given: slow enough to watch the bar and to
  /// press Ctrl-C half-way, fast enough to finish in a few seconds.
  static let defaultRate = 10.0

  static let spec = CommandSpec(
    name: "download", summary: "download a place's photo to a file (needs a login)",
    options: [
      .value("output", "FILE", "where to save the photo (required)"),
      .value(
        "rate", "MB",
        "how fast the simulated API sends the photo, in MB per second (default 10; 0: unpaced)"),
    ],
    arguments: [.init(name: "place-id", help: "the place's number, as `places` lists it")],
    discussion: """
      The photo arrives in FILE.convoy-partial beside FILE and is moved to FILE only once it
      is complete. Ctrl-C stops it (exit 130) and keeps the partial file; the next run for the
      same FILE resumes where it stopped.

      Example:
        democli download 3 --output harbour.bin --env staging --simulate
      """)

  static func run(_ context: CommandContext) async throws {
    let text = context.arguments.positionals[0]
    guard let id = Int(text), id > 0 else {
      throw UsageError.invalidValue(
        option: "<place-id>", value: text, expected: "a positive number")
    }
    guard let output = context.arguments.value("output"), !output.isEmpty else {
      throw UsageError.missingValue(option: "--output")
    }
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
      throw UsageError.invalidValue(
        option: "--output", value: output, expected: "a file's path, not a folder")
    }
    let rate = try rate(context.arguments.value("rate"))
    let destination = URL(fileURLWithPath: output)
    let connection = try context.connection(
      photoBytesPerSecond: rate > 0 ? Int(rate * 1_000_000) : nil)
    let request = PhotoRequest(id: id)
    if let resumed = resumableBytes(for: destination, of: request) {
      context.output.note("Resuming at \(ProgressLine.format(resumed))")
    }
    let download = connection.startDownload(request, to: destination)
    let file = try await context.withProgress("Downloading photo \(id)") { line in
      try await context.interruption.cancelling(with: download.cancel) {
        for await progress in download.progress { line.update(detail: ProgressLine.bar(progress)) }
        return try await download.file
      }
    }
    context.output.result(
      human: "Saved the photo of place \(id) to \(output) (\(ProgressLine.format(file.byteCount)))",
      json: [
        "placeId": id, "path": file.url.path, "bytes": file.byteCount,
        "resumedBytes": file.resumedByteCount,
      ] as [String: Any])
  }

  private static func rate(_ text: String?) throws(UsageError) -> Double {
    guard let text else { return defaultRate }
    guard let rate = Double(text), rate >= 0, rate.isFinite else {
      throw .invalidValue(option: "--rate", value: text, expected: "MB per second, 0 or more")
    }
    return rate
  }

  /// The bytes an earlier run left beside `destination` that Convoy will resume from: a partial
  /// file whose record says it is `request`'s (Convoy starts over for any other URL).
  private static func resumableBytes(for destination: URL, of request: PhotoRequest) -> Int64? {
    let partial = destination.appendingPathExtension("convoy-partial")
    let record = partial.appendingPathExtension("json")
    guard let data = try? Data(contentsOf: record),
      let url = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["url"]
        as? String,
      url.hasSuffix("/" + request.path),
      let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size]
        as? NSNumber, size.int64Value > 0
    else { return nil }
    return size.int64Value
  }
}
