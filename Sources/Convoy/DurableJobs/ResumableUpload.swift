import Foundation

extension DurableJobStep {
  /// The step that uploads the file at `fileURL` with the tus resumable-upload protocol (tus.io,
  /// version 1.0.0, with its creation extension): the upload is created at `endpoint` (the
  /// server's tus path, relative to the base URL), sent in parts of `partSize` bytes, and after a
  /// failure or a restart of the app continued from the offset the server reports. When the
  /// server no longer has the upload, it starts again from the first byte. Either is reported as
  /// a `durable.job` event (`upload_resumed` with the offset, or `upload_restarted`).
  ///
  /// ```swift
  /// let photo = try DurableJobStep.resumableUpload(
  ///   of: URL(fileURLWithPath: "/tmp/harbour.jpg"), to: "files",
  ///   metadata: ["filename": "harbour.jpg"])
  /// ```
  ///
  /// The file must stay as it is until the job ends: a file that changed (size or date) fails
  /// the step, rather than sending parts of two different files as one.
  ///
  /// - Throws: `CocoaError` when the file cannot be read.
  public static func resumableUpload(
    of fileURL: URL, to endpoint: String, metadata: [String: String] = [:],
    partSize: Int = 4 << 20
  ) throws -> DurableJobStep {
    let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
    let upload = ResumableUpload(
      filePath: fileURL.path, endpoint: endpoint, metadata: metadata,
      partSize: max(partSize, 1),
      fileSize: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
      modified: attributes[.modificationDate] as? Date)
    // No idempotency key: tus makes every part idempotent by its offset.
    return DurableJobStep(
      requestName: ResumableUpload.requestName, request: try JSONEncoder().encode(upload),
      idempotencyKey: nil)
  }
}

/// A resumable upload as a durable job keeps it, and the tus exchanges that send it.
struct ResumableUpload: Codable, Sendable {
  /// The step's ``DurableJobStep/requestName``: every queue knows it.
  static let requestName = "convoy.resumable-upload"

  let filePath: String
  let endpoint: String
  let metadata: [String: String]
  let partSize: Int
  /// The file's size and date when the job was made: a changed file is not sent.
  let fileSize: Int64
  let modified: Date?

  /// What the step saves once the server created the upload.
  struct Checkpoint: Codable {
    /// The upload's address, from the creation's `Location`.
    let uploadURL: String
  }

  static let sender = DurableStepSender(
    decodes: { (try? JSONDecoder().decode(ResumableUpload.self, from: $0)) != nil },
    send: { step, context in
      try await JSONDecoder().decode(ResumableUpload.self, from: step.request).send(context)
    })

  /// Sends what the server does not have yet.
  func send(_ context: DurableStepContext) async throws {
    try checkFileUnchanged()
    let connection = context.connection
    var uploadURL = context.checkpoint.flatMap {
      try? JSONDecoder().decode(Checkpoint.self, from: $0).uploadURL
    }
    var offset: Int64 = 0
    if let known = uploadURL {
      do {
        offset = try await connection.execute(TusOffsetRequest(path: known)).offset
        context.report(.uploadResumed, offset)
      } catch let error as ServerConnectionError where [404, 410, 403].contains(error.statusCode) {
        // Gone (expired, or deleted): the bytes sent before are lost to the server.
        uploadURL = nil
        context.report(.uploadRestarted, nil)
      }
    }
    if uploadURL == nil {
      let created = try await connection.execute(
        TusCreationRequest(path: endpoint, length: fileSize, metadata: metadata))
      uploadURL = created.location
      try await context.save(JSONEncoder().encode(Checkpoint(uploadURL: created.location)))
    }
    guard let uploadURL else { return }
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: filePath))
    defer { try? file.close() }
    while offset < fileSize {
      try file.seek(toOffset: UInt64(offset))
      let part = try file.read(upToCount: partSize) ?? Data()
      guard !part.isEmpty else { throw ResumableUploadFailure.fileChanged(filePath) }
      do {
        let answer = try await connection.execute(
          TusPartRequest(path: uploadURL, offset: offset, part: part))
        guard answer.offset > offset else { throw ResumableUploadFailure.noProgress(uploadURL) }
        offset = answer.offset
      } catch let error as ServerConnectionError where error.statusCode == 409 {
        // The server has another offset than this client thought: ask, and go on from there.
        offset = try await connection.execute(TusOffsetRequest(path: uploadURL)).offset
      }
    }
  }

  private func checkFileUnchanged() throws {
    let attributes = try? FileManager.default.attributesOfItem(atPath: filePath)
    guard let attributes,
      (attributes[.size] as? NSNumber)?.int64Value == fileSize,
      attributes[.modificationDate] as? Date == modified
    else { throw ResumableUploadFailure.fileChanged(filePath) }
  }
}

/// Why a resumable upload cannot go on.
enum ResumableUploadFailure: Error, CategorizedError, CustomStringConvertible {
  /// The file is gone or changed since the job was made.
  case fileChanged(String)
  /// The server took a part without moving its offset on.
  case noProgress(String)

  var category: ErrorCategory {
    switch self {
    case .fileChanged: .uploadSourceFailed
    case .noProgress: .malformedResponse
    }
  }

  var description: String {
    switch self {
    case .fileChanged(let path): "the file \(path) changed or is gone since the upload was added"
    case .noProgress(let url): "the server took a part of \(url) without moving its offset on"
    }
  }
}

/// The tus version every exchange names (`Tus-Resumable`).
private let tusVersion = "1.0.0"

/// Creates an upload: `POST` with its length and metadata; the answer's `Location` names it.
private struct TusCreationRequest: RequestDescribing {
  typealias Response = TusCreated
  let path: String
  let length: Int64
  let metadata: [String: String]
  var method: HTTPMethod { .post }
  var acceptableStatusCodes: Range<Int> { 201..<202 }
  var headers: HTTPHeaders {
    var headers: HTTPHeaders = ["Tus-Resumable": tusVersion, "Upload-Length": String(length)]
    if !metadata.isEmpty {
      // Keys and base64 values, comma-separated (tus 1.0.0, "Upload-Metadata").
      headers["Upload-Metadata"] = metadata.sorted { $0.key < $1.key }
        .map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }
        .joined(separator: ",")
    }
    return headers
  }
}

/// A created upload's address, absolute (resolved against the request's URL when relative).
private struct TusCreated: ResponseDescribing {
  let location: String

  init(data: Data, response: HTTPResponse) throws {
    guard let value = response.headers["Location"],
      let url = URL(string: value, relativeTo: response.url)?.absoluteURL
    else { throw ResumableUploadFailure.noProgress("the creation's answer (no Location)") }
    location = url.absoluteString
  }
}

/// How much of an upload the server has: `HEAD` answered with `Upload-Offset`.
private struct TusOffsetRequest: RequestDescribing {
  typealias Response = TusOffset
  let path: String
  var method: HTTPMethod { .head }
  var headers: HTTPHeaders { ["Tus-Resumable": tusVersion] }
  var cachePolicy: CachePolicy { .reloadIgnoringCache }
}

/// One part of an upload, at `offset`: `PATCH` answered with the new `Upload-Offset`.
private struct TusPartRequest: RequestDescribing {
  typealias Response = TusOffset
  let path: String
  let offset: Int64
  let part: Data
  var method: HTTPMethod { .patch }
  var headers: HTTPHeaders { ["Tus-Resumable": tusVersion, "Upload-Offset": String(offset)] }
  var body: RequestBody? { .data(part, contentType: "application/offset+octet-stream") }
  /// A part is sent again only at the offset the server reports.
  var allowsRetry: Bool { false }
}

/// The server's `Upload-Offset`.
private struct TusOffset: ResponseDescribing {
  let offset: Int64

  init(data: Data, response: HTTPResponse) throws {
    guard let value = response.headers["Upload-Offset"], let offset = Int64(value), offset >= 0
    else { throw ResumableUploadFailure.noProgress(response.url?.absoluteString ?? "an upload") }
    self.offset = offset
  }
}
