import Foundation

/// A private certificate authority and a server certificate for `127.0.0.1` and `localhost`
/// signed by it, made with the `openssl` command for one run of the HTTPS cells.
///
/// The authority is trusted only by the clients the benchmark builds with it (a
/// `TLSConfiguration`, `CURLOPT_CAINFO`), never installed system-wide: a test authority left in
/// the system store would outlive the run on a shared machine. ECDSA P-256 keys, as most public
/// sites now serve, so the handshake cost is that of a current certificate rather than RSA's.
///
/// The `openssl` command rather than Python's `trustme`: it is on every Debian image that has
/// libcurl's TLS, needs no virtual environment, and fails with a message that says what is
/// missing.
///
/// The peer benchmark's package (`Benchmarks/`) uses this file through a symbolic link: it cannot
/// import an executable target, and both benchmarks must serve the same certificate.
struct BenchmarkCertificates {
  /// The authority's certificate (PEM): what clients trust.
  let authorityFile: URL
  /// The server's certificate (PEM), for `127.0.0.1` and `localhost`.
  let certificateFile: URL
  /// The server's private key (PEM, unencrypted).
  let keyFile: URL

  /// Where `openssl` is looked for.
  static let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl"]

  /// The certificates in `directory`: reused when the directory already holds all three files
  /// (as when `CONVOY_BENCH_TLS_DIR` or `PEER_BENCH_TLS_DIR` names one kept between runs), made
  /// there otherwise.
  ///
  /// - Throws: ``BenchmarkError`` saying what is missing (`openssl`) or which step failed.
  static func make(in directory: URL) throws -> BenchmarkCertificates {
    let certificates = BenchmarkCertificates(
      authorityFile: directory.appendingPathComponent("ca.pem"),
      certificateFile: directory.appendingPathComponent("server.pem"),
      keyFile: directory.appendingPathComponent("server.key"))
    let files = [certificates.authorityFile, certificates.certificateFile, certificates.keyFile]
    if files.allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) {
      return certificates
    }
    guard
      let openssl = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
      throw BenchmarkError(
        "openssl is not installed (looked in \(candidates.joined(separator: ", "))); "
          + "`apt-get install openssl` makes the run's certificates")
    }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.path
    let extensions = directory.appendingPathComponent("server.ext")
    try Data(
      """
      basicConstraints = critical, CA:FALSE
      keyUsage = critical, digitalSignature
      extendedKeyUsage = serverAuth
      subjectAltName = IP:127.0.0.1, DNS:localhost

      """.utf8
    ).write(to: extensions)
    let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try run(
      openssl,
      ["req", "-x509", "-new"] + newKey + [
        "-keyout", "\(path)/ca.key", "-out", "\(path)/ca.pem", "-days", "7",
        "-subj", "/CN=Convoy benchmark CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
      ], step: "making the authority")
    try run(
      openssl,
      ["req", "-new"] + newKey + [
        "-keyout", "\(path)/server.key", "-out", "\(path)/server.csr", "-subj", "/CN=127.0.0.1",
      ], step: "making the server's key")
    try run(
      openssl,
      [
        "x509", "-req", "-in", "\(path)/server.csr", "-CA", "\(path)/ca.pem", "-CAkey",
        "\(path)/ca.key", "-set_serial", "2", "-days", "7", "-extfile", extensions.path,
        "-out", "\(path)/server.pem",
      ], step: "signing the server's certificate")
    return certificates
  }

  private static func run(_ openssl: String, _ arguments: [String], step: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: openssl)
    process.arguments = arguments
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = String(decoding: message, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      throw BenchmarkError("openssl failed \(step): \(text)")
    }
  }
}
