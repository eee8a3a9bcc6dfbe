extension RequestBody {
  /// Forms at most this large are encoded in memory; larger ones go through a temporary file.
  public static let multipartMemoryThreshold = 10_000_000

  /// A `multipart/form-data` body.
  ///
  /// Small forms are encoded in memory at each attempt. Larger ones (or ones whose files cannot
  /// be measured yet) are written once per call to a temporary file, streamed from there, and
  /// the file is removed when the call ends. Either way the body can be replayed for retries.
  ///
  /// - Parameters:
  ///   - form: The fields and files.
  ///   - memoryThreshold: The largest encoded size, in bytes, kept in memory.
  /// - Returns: The body, with the form's content type and boundary.
  public static func multipart(
    _ form: MultipartFormData, memoryThreshold: Int = RequestBody.multipartMemoryThreshold
  ) -> RequestBody {
    if let length = form.contentLength, length <= memoryThreshold {
      return RequestBody(content: .encoded { try form.encoded() }, contentType: form.contentType)
    }
    return RequestBody(
      content: .temporaryFile { url in try form.write(to: url) }, contentType: form.contentType)
  }
}
