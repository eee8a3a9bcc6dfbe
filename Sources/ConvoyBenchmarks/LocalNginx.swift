import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An nginx on free loopback ports, serving two static JSON files with keep-alive (and, for the
/// transfer benchmarks, one large file with `sendfile`). It runs in the foreground as a child
/// process and is stopped by `stop()`.
///
/// Besides ``port`` it listens on ``coldPort``, which closes every connection after one request,
/// and, when given certificates, on ``tlsPort`` and ``coldTLSPort`` the same over HTTPS with
/// HTTP/2 offered by ALPN. Every port answers `/protocol` with nginx's `$server_protocol`,
/// connection number and TLS version, so a client's protocol and connection reuse can be checked from the server.
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

  /// Starts nginx and waits (at most 5 s) until it accepts connections.
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
    let ports = Ports(
      plain: try freeLoopbackPort(), cold: try freeLoopbackPort(),
      tls: certificates == nil ? nil : try freeLoopbackPort(),
      coldTLS: certificates == nil ? nil : try freeLoopbackPort())
    let configuration = directory.appendingPathComponent("nginx.conf")
    let text = config(
      directory: directory.path, ports: ports, sendfile: largeFile != nil,
      certificates: certificates)
    try Data(text.utf8).write(to: configuration)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["-p", directory.path, "-c", configuration.path, "-e", "stderr"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let server = LocalNginx(
      ports: ports, version: version(of: binary), process: process, directory: directory)
    let deadline = Date().addingTimeInterval(5)
    for port in ports.all {
      while !canConnect(port: port) {
        guard Date() < deadline, process.isRunning else {
          server.stop()
          throw BenchmarkError("nginx did not start on 127.0.0.1:\(port)")
        }
        usleep(20_000)
      }
    }
    return server
  }

  /// Stops nginx and removes its files.
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

    var all: [Int] { [plain, cold] + [tls, coldTLS].compactMap { $0 } }
  }

  /// One process, no daemon, nothing logged, keep-alive without a request limit; `sendfile` for
  /// large files, so the server spends as little as it can of the CPUs it shares with the client.
  private static func config(
    directory: String, ports: Ports, sendfile: Bool, certificates: BenchmarkCertificates?
  ) -> String {
    // `keepalive_requests` also ends HTTP/2 connections (a GOAWAY after the last stream) since
    // nginx 1.19.7.
    func server(_ port: Int, tls: Bool, cold: Bool) -> String {
      var lines = ["listen 127.0.0.1:\(port)\(tls ? " ssl http2" : "");", "root \(directory)/www;"]
      if cold { lines.append("keepalive_requests 1;") }
      if tls, let certificates {
        lines.append("ssl_certificate \(certificates.certificateFile.path);")
        lines.append("ssl_certificate_key \(certificates.keyFile.path);")
        // nginx before 1.23.4 leaves TLS 1.3 out by default; current servers negotiate it.
        lines.append("ssl_protocols TLSv1.2 TLSv1.3;")
        if cold { lines += ["ssl_session_tickets off;", "ssl_session_cache off;"] }
      }
      lines.append(
        "location = /protocol { default_type text/plain; "
          + "return 200 \"$server_protocol $connection $ssl_protocol\"; }")
      return "  server {\n" + lines.map { "    " + $0 }.joined(separator: "\n") + "\n  }"
    }
    var servers = [server(ports.plain, tls: false, cold: false)]
    servers.append(server(ports.cold, tls: false, cold: true))
    if let tls = ports.tls { servers.append(server(tls, tls: true, cold: false)) }
    if let coldTLS = ports.coldTLS { servers.append(server(coldTLS, tls: true, cold: true)) }
    return """
      daemon off;
      master_process off;
      worker_processes 1;
      pid \(directory)/nginx.pid;
      error_log stderr error;
      events { worker_connections 1024; }
      http {
        access_log off;
        open_file_cache max=16;
        tcp_nodelay on;
        sendfile \(sendfile ? "on" : "off");
        keepalive_requests 1000000;
        keepalive_timeout 60s;
        client_body_temp_path \(directory)/body;
        proxy_temp_path \(directory)/proxy;
        fastcgi_temp_path \(directory)/fastcgi;
        uwsgi_temp_path \(directory)/uwsgi;
        scgi_temp_path \(directory)/scgi;
        types { application/json json; text/event-stream sse; }
      \(servers.joined(separator: "\n"))
      }
      """
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

/// A loopback port nothing listens on: bound, read back, and closed again.
func freeLoopbackPort() throws -> Int {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw BenchmarkError("socket() failed") }
  defer { close(descriptor) }
  var address = loopbackAddress(port: 0)
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
      bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
    }
  }
  guard bound else { throw BenchmarkError("could not bind a loopback port") }
  return Int(UInt16(bigEndian: address.sin_port))
}

private func canConnect(port: Int) -> Bool {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  var address = loopbackAddress(port: port)
  return withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

private func loopbackAddress(port: Int) -> sockaddr_in {
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = UInt16(port).bigEndian
  return address
}
