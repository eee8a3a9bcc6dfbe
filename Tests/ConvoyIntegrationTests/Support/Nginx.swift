import Foundation

/// A real nginx (`scripts/nginx_server.py`) serving a fresh temporary directory on a free
/// loopback port, for download and resume tests; stopped, and the directory removed, at exit.
///
/// Files put in ``root`` are served at `/files/<name>` (sendfile, ETag, `Range`, `If-Range`) and,
/// at a limited rate, at `/slow/<name>`. ``accessLog()`` tells what each request asked for.
final class Nginx: LoopbackServer {
  let server: LoopbackServerProcess
  /// The directory served.
  let root: URL
  /// nginx's access log, one ``AccessLogLine`` per request.
  let accessLogURL: URL

  /// A server whose `/slow/` sends 2 MB per second.
  static let shared = Nginx(slowRate: "2m")

  /// Starts a server over a new empty directory.
  ///
  /// - Parameter slowRate: The bytes per second of `/slow/`, in nginx's `limit_rate` syntax.
  init(slowRate: String) {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-nginx-root-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    } catch {
      fatalError("could not create nginx's root directory: \(error)")
    }
    server = LoopbackServerProcess.start(
      script: "nginx_server.py", arguments: [root.path, "--rate", slowRate],
      removingAtExit: [root])
    guard let logPath = server.details.first else {
      fatalError("nginx_server.py did not say where its access log is")
    }
    accessLogURL = URL(fileURLWithPath: logPath)
  }

  /// The URL of a file in ``root``, fast or at the `/slow/` rate.
  func url(ofFile name: String, slow: Bool = false) -> URL {
    url((slow ? "/slow/" : "/files/") + name)
  }

  /// Writes `byteCount` pseudo-random bytes to a new file in ``root``, a chunk at a time, so
  /// even a file of gigabytes never sits in memory. The same seed gives the same bytes.
  @discardableResult
  func makeFile(named name: String, byteCount: Int, seed: UInt64 = 1) throws -> URL {
    let file = root.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
    }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    var bytes = PseudoRandomBytes(seed: seed)
    var remaining = byteCount
    while remaining > 0 {
      let chunk = min(remaining, 1 << 20)
      try handle.write(contentsOf: bytes.next(chunk))
      remaining -= chunk
    }
    return file
  }

  /// Makes a sparse file of `byteCount` zero bytes in ``root``: instant, and takes no disk
  /// space, for tests that move a gigabyte.
  @discardableResult
  func makeSparseFile(named name: String, byteCount: Int) throws -> URL {
    let file = root.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
    }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    try handle.truncate(atOffset: UInt64(byteCount))
    return file
  }

  /// Every request nginx logged so far, oldest first.
  ///
  /// nginx writes a line when a response is finished, so a request still being answered is
  /// not there yet.
  func accessLog() throws -> [AccessLogLine] {
    let text = try String(contentsOf: accessLogURL, encoding: .utf8)
    return text.split(separator: "\n").compactMap { AccessLogLine(String($0)) }
  }

  /// What arrived of each upload to `/uploads` and `/uploads/limited`, oldest first: the path,
  /// the status nginx answered, and the bytes of the request it read (head and body).
  func uploadLog() throws -> [(uri: String, status: Int, requestLength: Int)] {
    let file = accessLogURL.deletingLastPathComponent().appendingPathComponent("uploads.log")
    guard FileManager.default.fileExists(atPath: file.path) else { return [] }
    return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
      let parts = $0.split(separator: " ")
      guard parts.count == 3, let status = Int(parts[1]), let length = Int(parts[2]) else {
        return nil
      }
      return (String(parts[0]), status, length)
    }
  }

  /// The access-log lines of requests for `path` (e.g. `/files/big.bin`).
  func accessLog(for path: String) throws -> [AccessLogLine] {
    try accessLog().filter { $0.uri == path }
  }
}
