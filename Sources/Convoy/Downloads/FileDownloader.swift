import Foundation

/// Downloads one request's body into a file, in constant memory, resuming where it can.
///
/// Each attempt streams the body into the partial file beside the destination. A previous
/// attempt's bytes are kept when the server can send just the rest (`Range` with `If-Range`, so a
/// changed file is sent whole instead); a connection that drops mid-body is resumed the same way,
/// as often as the request's retry policy allows retries.
struct FileDownloader<Request: RequestDescribing>: Sendable {
  let pipeline: CallPipeline
  let request: Request
  let destination: URL
  let options: StreamOptions
  let progress: (@Sendable (TransferProgress) -> Void)?

  func run() async throws -> DownloadedFile {
    let partial = PartialDownload(destination: destination)
    // A download is never refused for reading too slowly: on a transport that cannot pause
    // (FoundationNetworking), what the disk has not taken yet waits in a temporary file.
    var options = options
    options.spillsToDisk = true
    try partial.checkDestination()
    let url = try pipeline.configuration.url(path: request.path)
    var drops = 0
    var isRefetchingWhole = false
    let retryPolicy = request.retryPolicy ?? pipeline.configuration.retryPolicy
    while true {
      let resume = isRefetchingWhole ? nil : partial.resumePoint(for: url)
      let stream: ResponseStream
      if let resume {
        let range: HTTPHeaders = ["Range": "bytes=\(resume.offset)-", "If-Range": resume.validator]
        stream = try await pipeline.openStream(
          RequestWithExtraHeaders(base: request, extraHeaders: range), options: options)
      } else {
        stream = try await pipeline.openStream(request, options: options)
      }
      if let resume, stream.head.statusCode == 206,
        !resume.record.isSameRepresentation(as: stream.head)
      {
        // The range is of another version of the file: appending it would splice two files.
        stream.body.buffer.cancel()
        partial.discard()
        isRefetchingWhole = true
        continue
      }
      let plan = try plan(
        for: stream.head, resumingAt: resume?.offset, partial: partial, requestedURL: url)
      partial.save(plan.record)
      isRefetchingWhole = false
      let writer = try partial.openForWriting(at: plan.offset)
      report(writer.offset, of: plan.totalBytes)
      do {
        for try await chunk in stream.body {
          try writer.write(chunk)
          report(writer.offset, of: plan.totalBytes)
        }
      } catch let error as ServerConnectionError
        where isDroppedConnection(error) && drops < retryPolicy.maximumRetries
      {
        // The bytes that arrived are on disk; the next attempt asks for the rest.
        writer.close()
        drops += 1
        continue
      }
      if let total = plan.totalBytes, writer.offset != total {
        writer.close()
        throw FileTransferFailure(
          kind: .incomplete, path: destination.path,
          detail: "\(writer.offset) of \(total) bytes arrived")
      }
      try writer.finish()
      try partial.complete()
      return DownloadedFile(
        url: destination, response: stream.head, byteCount: writer.offset,
        resumedByteCount: plan.offset)
    }
  }

  /// Where to write this answer's body, and what to remember to resume it.
  private struct Plan {
    var offset: Int64
    var totalBytes: Int64?
    var record: PartialDownload.Record
  }

  private func plan(
    for head: HTTPResponse, resumingAt offset: Int64?, partial: PartialDownload, requestedURL: URL
  ) throws -> Plan {
    // The record is kept under the URL asked for, which is what the next call asks for again
    // (the answer's may differ after a redirect).
    var record = PartialDownload.Record(
      url: requestedURL.absoluteString, entityTag: head.headers["ETag"],
      lastModified: head.headers["Last-Modified"], totalBytes: nil)
    if head.statusCode == 206 {
      guard let offset, let range = ContentRange(head.headers["Content-Range"] ?? ""),
        range.first == offset
      else {
        // A range that does not continue the file: start over rather than splice bytes.
        partial.discard()
        throw FileTransferFailure(
          kind: .rangeMismatch, path: destination.path,
          detail: "the server sent \(head.headers["Content-Range"] ?? "no Content-Range")")
      }
      record.totalBytes = range.total
      return Plan(offset: offset, totalBytes: range.total, record: record)
    }
    // A 200 is the whole file: the server ignored the range, or the validator changed.
    let length = head.headers["Content-Length"].flatMap { Int64($0) }
    let isEncoded = head.headers["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
    record.totalBytes = isEncoded ? nil : length
    return Plan(offset: 0, totalBytes: record.totalBytes, record: record)
  }

  private func isDroppedConnection(_ error: ServerConnectionError) -> Bool {
    guard case .transportFailed(let failure, _) = error else { return false }
    return [.networkConnectionLost, .timedOut, .cannotConnectToHost].contains(failure.kind)
  }

  private func report(_ completed: Int64, of total: Int64?) {
    progress?(TransferProgress(completedBytes: completed, totalBytes: total))
  }
}

/// `Content-Range: bytes 100-199/1000` (RFC 9110 §14.4), of a `206` answer.
struct ContentRange: Equatable {
  var first: Int64
  var last: Int64
  /// `nil` for `*`: the server does not know the full length.
  var total: Int64?

  init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
    let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
    let bounds = rangeAndTotal.first?.split(separator: "-", maxSplits: 1) ?? []
    guard rangeAndTotal.count == 2, bounds.count == 2, let first = Int64(bounds[0]),
      let last = Int64(bounds[1]), first <= last
    else { return nil }
    self.first = first
    self.last = last
    if rangeAndTotal[1] == "*" {
      total = nil
    } else {
      guard let total = Int64(rangeAndTotal[1]), total > last else { return nil }
      self.total = total
    }
  }
}
