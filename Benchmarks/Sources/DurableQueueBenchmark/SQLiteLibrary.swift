import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The system's SQLite, loaded at run time.
///
/// Why `dlopen` and not a system-library target with a module map for `sqlite3.h`: the header
/// comes only with the development package (libsqlite3-dev on Debian), while the library itself
/// (libsqlite3.so.0) is on nearly every machine. Loading it as Convoy loads libcurl and zlib keeps
/// the benchmark buildable where only the library is installed, and the handful of functions it
/// calls have stable C signatures.
struct SQLiteLibrary: @unchecked Sendable {
  typealias Open =
    @convention(c) (
      UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>, Int32, UnsafePointer<CChar>?
    ) -> Int32
  typealias Close = @convention(c) (OpaquePointer?) -> Int32
  typealias Exec =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, OpaquePointer?, OpaquePointer?,
      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32
  typealias Prepare =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<OpaquePointer?>,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32
  /// The last argument is the destructor: `nil` is `SQLITE_STATIC` (the bytes outlive the step).
  typealias BindBlob =
    @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?, Int32, OpaquePointer?) -> Int32
  typealias Statement = @convention(c) (OpaquePointer?) -> Int32
  typealias ColumnBlob = @convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?
  typealias ColumnBytes = @convention(c) (OpaquePointer?, Int32) -> Int32
  typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  typealias Version = @convention(c) () -> UnsafePointer<CChar>?

  static let ok: Int32 = 0
  static let row: Int32 = 100
  static let done: Int32 = 101
  static let openReadWrite: Int32 = 0x02
  static let openCreate: Int32 = 0x04

  let open: Open
  let close: Close
  let exec: Exec
  let prepare: Prepare
  let bindBlob: BindBlob
  let step: Statement
  let reset: Statement
  let finalize: Statement
  let columnBlob: ColumnBlob
  let columnBytes: ColumnBytes
  let errorMessage: ErrorMessage
  let version: String

  /// The library, or `nil` when libsqlite3.so.0 is not installed.
  static let shared: SQLiteLibrary? = load()

  private static func load() -> SQLiteLibrary? {
    guard let handle = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
    func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
      dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
    guard let open = symbol("sqlite3_open_v2", as: Open.self),
      let close = symbol("sqlite3_close_v2", as: Close.self),
      let exec = symbol("sqlite3_exec", as: Exec.self),
      let prepare = symbol("sqlite3_prepare_v2", as: Prepare.self),
      let bindBlob = symbol("sqlite3_bind_blob", as: BindBlob.self),
      let step = symbol("sqlite3_step", as: Statement.self),
      let reset = symbol("sqlite3_reset", as: Statement.self),
      let finalize = symbol("sqlite3_finalize", as: Statement.self),
      let columnBlob = symbol("sqlite3_column_blob", as: ColumnBlob.self),
      let columnBytes = symbol("sqlite3_column_bytes", as: ColumnBytes.self),
      let errorMessage = symbol("sqlite3_errmsg", as: ErrorMessage.self),
      let version = symbol("sqlite3_libversion", as: Version.self)
    else { return nil }
    return SQLiteLibrary(
      open: open, close: close, exec: exec, prepare: prepare, bindBlob: bindBlob, step: step,
      reset: reset, finalize: finalize, columnBlob: columnBlob, columnBytes: columnBytes,
      errorMessage: errorMessage, version: version().map { String(cString: $0) } ?? "unknown")
  }
}

/// One SQLite database file holding the jobs as the journal does: one row per encoded job, in
/// WAL mode with `synchronous=FULL`, so that every commit is durable (the WAL is synced) before
/// it returns.
final class SQLiteJobTable {
  private let library: SQLiteLibrary
  private var database: OpaquePointer?
  private var insert: OpaquePointer?

  /// Opens (creating) the database at `path` and its `jobs` table.
  init(library: SQLiteLibrary, path: String) throws {
    self.library = library
    guard
      library.open(path, &database, SQLiteLibrary.openReadWrite | SQLiteLibrary.openCreate, nil)
        == SQLiteLibrary.ok
    else { throw BenchmarkFailure("sqlite open \(path)") }
    try execute("PRAGMA journal_mode=WAL")
    try execute("PRAGMA synchronous=FULL")
    try execute("CREATE TABLE IF NOT EXISTS jobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
    guard
      library.prepare(database, "INSERT INTO jobs (body) VALUES (?)", -1, &insert, nil)
        == SQLiteLibrary.ok
    else { throw failure("prepare") }
  }

  deinit {
    _ = library.finalize(insert)
    _ = library.close(database)
  }

  /// Runs `sql`, which returns no rows.
  func execute(_ sql: String) throws {
    guard library.exec(database, sql, nil, nil, nil) == SQLiteLibrary.ok else {
      throw failure(sql)
    }
  }

  /// Inserts one row; in autocommit mode that is one durable transaction.
  func insert(_ body: Data) throws {
    let code = body.withUnsafeBytes { bytes in
      _ = library.bindBlob(insert, 1, bytes.baseAddress, Int32(bytes.count), nil)
      defer { _ = library.reset(insert) }
      return library.step(insert)
    }
    guard code == SQLiteLibrary.done else { throw failure("insert") }
  }

  /// Every row's body, in the order they were inserted.
  func bodies() throws -> [Data] {
    var select: OpaquePointer?
    guard
      library.prepare(database, "SELECT body FROM jobs ORDER BY id", -1, &select, nil)
        == SQLiteLibrary.ok
    else { throw failure("prepare select") }
    defer { _ = library.finalize(select) }
    var bodies: [Data] = []
    var code = library.step(select)
    while code == SQLiteLibrary.row {
      let count = Int(library.columnBytes(select, 0))
      let bytes = library.columnBlob(select, 0)
      bodies.append(bytes.map { Data(bytes: $0, count: count) } ?? Data())
      code = library.step(select)
    }
    guard code == SQLiteLibrary.done else { throw failure("select") }
    return bodies
  }

  private func failure(_ operation: String) -> BenchmarkFailure {
    let message = library.errorMessage(database).map { String(cString: $0) } ?? "unknown"
    return BenchmarkFailure("sqlite \(operation): \(message)")
  }
}

/// A benchmark step that could not be done, in words.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
