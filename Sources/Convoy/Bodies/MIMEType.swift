/// Guesses a file's media type from its extension.
///
/// A short table instead of `UniformTypeIdentifiers`, which Linux does not have; unknown
/// extensions are `application/octet-stream`, which every server accepts.
enum MIMEType {
  static func forFileName(_ fileName: String) -> String {
    guard let dot = fileName.lastIndex(of: ".") else { return octetStream }
    let pathExtension = fileName[fileName.index(after: dot)...].lowercased()
    return byExtension[pathExtension] ?? octetStream
  }

  static let octetStream = "application/octet-stream"

  private static let byExtension: [String: String] = [
    "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css",
    "csv": "text/csv", "xml": "application/xml", "json": "application/json",
    "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
    "webp": "image/webp", "heic": "image/heic", "svg": "image/svg+xml",
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/wav",
    "mp4": "video/mp4", "mov": "video/quicktime",
  ]
}
