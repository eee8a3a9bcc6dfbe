import Foundation

/// An nginx on free loopback ports, serving two static JSON files with keep-alive (and, for the
/// transfer benchmarks, one large file with `sendfile`), started through
/// `scripts/nginx_server.py --benchmark`, the one place Convoy writes an nginx configuration (the
/// integration tests' nginx comes from the same script). It runs as a child process and is
/// stopped by `stop()`.
///
/// Besides ``port`` it listens on ``coldPort``, which closes every connection after one request,
/// and, when given certificates, on ``tlsPort`` and ``coldTLSPort`` the same over HTTPS with
/// HTTP/2 offered by ALPN. Every port answers `/protocol` with nginx's `$server_protocol`,
/// connection number and TLS version, so a client's protocol and connection reuse can be
/// checked from the server.
///
/// The peer benchmark package (`Benchmarks/`) cannot import this executable target, so its
/// `LocalNginx.swift` is a symbolic link to this file: both benchmarks serve the same bytes from
/// the same configuration.
final class LocalNginx {
  /// Where Debian's `nginx-light` (`apt-get install nginx-light`) puts the binary.
  static let candidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]

  /// Plain HTTP/1.1, keep-alive without a request limit.
  let port: Int
  /// Plain HTTP/1.1, one request per connection (`keepalive_requests 1`).
  let coldPort: Int
  /// HTTPS with HTTP/2 (and HTTP/1.1) by ALPN, keep-alive; `nil` without certificates.
  let tlsPort: Int?
  /// HTTPS with HTTP/2, one request per connection and no session resumption, so every request
  /// pays a full handshake; `nil` without certificates.
  let coldTLSPort: Int?
  let version: String
  private let process: Process
  private let directory: URL

  /// The files served, by name, with their sizes in bytes.
  static let files = [("small.json", 1_024), ("large.json", 100 * 1_024)]

  private init(ports: Ports, version: String, process: Process, directory: URL) {
    port = ports.plain
    coldPort = ports.cold
    tlsPort = ports.tls
    coldTLSPort = ports.coldTLS
    self.version = version
    self.process = process
    self.directory = directory
  }

  /// The nginx binary, or `nil` when none is installed.
  static func binary() -> String? {
    candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The path the large file is served at, when one was given to ``start(binary:largeFile:)``.
  static let largeFilePath = "/large.bin"

  /// Starts nginx and waits until every port accepts connections.
  ///
  /// - Parameters:
  ///   - largeFile: Served (through a symbolic link, never copied) at ``largeFilePath``.
  ///   - extraFiles: More files to serve, by name (`.sse` files as `text/event-stream`).
  ///   - certificates: When given, the HTTPS ports are opened with this server certificate.
  static func start(
    binary: String, largeFile: URL? = nil, extraFiles: [String: Data] = [:],
    certificates: BenchmarkCertificates? = nil
  ) throws -> LocalNginx {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("convoy-nginx-\(UUID().uuidString)")
    let root = directory.appendingPathComponent("www")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    for (name, size) in files {
      try jsonDocument(bytes: size).write(to: root.appendingPathComponent(name))
    }
    for (name, contents) in extraFiles { try contents.write(to: root.appendingPathComponent(name)) }
    if let largeFile {
      try FileManager.default.createSymbolicLink(
        at: root.appendingPathComponent(String(largeFilePath.dropFirst())),
        withDestinationURL: largeFile)
    }
    var arguments = ["python3", try script().path, root.path, "--benchmark"]
    if largeFile != nil { arguments.append("--sendfile") }
    if let certificates {
      arguments += [
        "--cert", certificates.certificateFile.path, "--key", certificates.keyFile.path,
      ]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The script prints its line once every port answers, or exits saying why it could not.
    let line = firstLine(of: output.fileHandleForReading)
    let fields = line.split(separator: " ").map(String.init)
    let named = Dictionary(
      fields.dropFirst(3).compactMap { field -> (String, Int)? in
        let parts = field.split(separator: "=")
        guard parts.count == 2, let port = Int(parts[1]) else { return nil }
        return (String(parts[0]), port)
      },
      uniquingKeysWith: { first, _ in first })
    guard fields.first == "LISTENING", fields.count >= 3, let plain = Int(fields[2]),
      let cold = named["cold"]
    else {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      try? FileManager.default.removeItem(at: directory)
      throw BenchmarkError("scripts/nginx_server.py did not start nginx (said: \(line))")
    }
    return LocalNginx(
      ports: Ports(plain: plain, cold: cold, tls: named["tls"], coldTLS: named["coldtls"]),
      version: version(of: binary), process: process, directory: directory)
  }

  /// Stops nginx (the script stops it and removes its own files) and removes the served files.
  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
  }

  private struct Ports {
    let plain: Int
    let cold: Int
    let tls: Int?
    let coldTLS: Int?
  }

  /// `scripts/nginx_server.py`, found above this file: in the Convoy package, and in the peer
  /// benchmark package, which links this file from inside the same checkout.
  private static func script() throws -> URL {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = directory.appendingPathComponent("scripts/nginx_server.py")
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw BenchmarkError("scripts/nginx_server.py is not in a folder above \(#filePath)")
  }

  /// The first line `handle` gives, or what it gave before it ended.
  private static func firstLine(of handle: FileHandle) -> String {
    var data = Data()
    while !data.contains(UInt8(ascii: "\n")) {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      data.append(chunk)
    }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
      ?? ""
  }

  /// A JSON array of small objects padded to exactly `bytes` bytes.
  private static func jsonDocument(bytes: Int) -> Data {
    var items: [String] = []
    var length = 2
    var index = 0
    while true {
      let item = "{\"id\":\(index),\"name\":\"place \(index)\",\"open\":true}"
      guard length + item.count + 1 < bytes - 20 else { break }
      items.append(item)
      length += item.count + 1
      index += 1
    }
    var text = "[" + items.joined(separator: ",")
    let padding = bytes - text.count - 2 - 13
    text += ",{\"pad\":\"" + String(repeating: "x", count: max(0, padding)) + "\"}]"
    return Data(text.utf8)
  }

  private static func version(of binary: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["-v"]
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return "nginx" }
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: ":").last.map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }
      ?? "nginx"
  }
}
