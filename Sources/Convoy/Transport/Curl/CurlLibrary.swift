#if os(Linux)
  import Foundation
  import Glibc

  /// The few libcurl functions Convoy calls, looked up at run time in the system `libcurl.so.4`.
  ///
  /// Why `dlopen` and not a system-library target: a module map needs `curl/curl.h`, which only
  /// the `-dev` package installs, and linking `-lcurl` needs its `libcurl.so` symlink. Neither is
  /// on a fresh machine with only the Swift toolchain. The shared object itself always is, because
  /// FoundationNetworking links it, so `dlopen` just returns the copy already mapped.
  ///
  /// `curl_easy_setopt` and `curl_multi_setopt` are variadic, which Swift cannot declare. They are
  /// called through fixed prototypes whose third argument is an integer or a pointer: on x86-64
  /// System V and on Linux AArch64 such a variadic argument travels in the same register as a
  /// fixed one. On x86-64 the callee also reads `%al` only to decide whether to spill vector
  /// registers (`test %al,%al`), so an arbitrary value there is harmless.
  package struct CurlLibrary: @unchecked Sendable {
    package typealias Easy = OpaquePointer
    package typealias Multi = OpaquePointer
    package typealias SList = OpaquePointer
    /// `size_t (*)(char *, size_t, size_t, void *)`: the write, header and read callbacks.
    package typealias DataCallback =
      @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    /// `int (*)(void *, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)`.
    package typealias ProgressCallback =
      @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32
    /// `int (*)(struct curl_slist **list, void *userdata)`: the request trailers callback.
    package typealias TrailerCallback =
      @convention(c) (UnsafeMutablePointer<SList?>?, UnsafeMutableRawPointer?) -> Int32

    /// libcurl 7.68.0 added `curl_multi_wakeup`, which the event loop needs.
    static let minimumVersion: UInt32 = 0x07_44_00

    package let versionNumber: UInt32
    package let version: String

    package let easyInit: @convention(c) () -> Easy?
    package let easyCleanup: @convention(c) (Easy) -> Void
    package let easyReset: @convention(c) (Easy) -> Void
    package let easySetLong: @convention(c) (Easy, Int32, Int) -> Int32
    package let easySetPointer: @convention(c) (Easy, Int32, UnsafeRawPointer?) -> Int32
    package let easySetCallback: @convention(c) (Easy, Int32, DataCallback) -> Int32
    package let easySetProgressCallback: @convention(c) (Easy, Int32, ProgressCallback) -> Int32
    package let easySetTrailerCallback: @convention(c) (Easy, Int32, TrailerCallback) -> Int32
    package let easyPause: @convention(c) (Easy, Int32) -> Int32
    /// `curl_easy_getinfo`, variadic like `curl_easy_setopt`: its one argument is always a pointer
    /// to where the answer goes.
    package let easyGetInfo: @convention(c) (Easy, Int32, UnsafeMutableRawPointer) -> Int32
    package let easyStrerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    /// `curl_easy_perform`: a connect-only handle's blocking connect (TLS and proxy included).
    package let easyPerform: @convention(c) (Easy) -> Int32
    /// `curl_easy_send` and `curl_easy_recv` on a connect-only handle's connection:
    /// `(handle, buffer, length, &done)`; `CURLE_AGAIN` when the socket is not ready.
    package let easySend:
      @convention(c) (Easy, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int>) -> Int32
    package let easyRecv:
      @convention(c) (Easy, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>) -> Int32
    package let slistAppend: @convention(c) (SList?, UnsafePointer<CChar>) -> SList?
    package let slistFreeAll: @convention(c) (SList?) -> Void
    package let multiInit: @convention(c) () -> Multi?
    package let multiCleanup: @convention(c) (Multi) -> Int32
    package let multiSetLong: @convention(c) (Multi, Int32, Int) -> Int32
    package let multiAddHandle: @convention(c) (Multi, Easy) -> Int32
    package let multiRemoveHandle: @convention(c) (Multi, Easy) -> Int32
    package let multiPerform: @convention(c) (Multi, UnsafeMutablePointer<Int32>) -> Int32
    package let multiPoll:
      @convention(c) (Multi, UnsafeMutableRawPointer?, UInt32, Int32, UnsafeMutablePointer<Int32>?)
        -> Int32
    package let multiWakeup: @convention(c) (Multi) -> Int32
    package let multiInfoRead:
      @convention(c) (Multi, UnsafeMutablePointer<Int32>) -> UnsafeRawPointer?

    /// The loaded library, or why it cannot be used; decided once per process.
    package static let shared = load("libcurl.so.4")

    /// Loads `name`: the system library in production, a missing one in tests of the fallback.
    static func load(_ name: String) -> Result<CurlLibrary, CurlTransportUnavailable> {
      Result { () throws(CurlTransportUnavailable) in
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
          let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
          throw CurlTransportUnavailable("\(name) could not be loaded: \(reason)")
        }
        return try CurlLibrary(handle: handle)
      }
    }

    private init(handle: UnsafeMutableRawPointer) throws(CurlTransportUnavailable) {
      typealias VersionInfo = @convention(c) (Int32) -> UnsafeRawPointer?
      let versionInfo: VersionInfo = try Self.symbol("curl_version_info", in: handle)
      guard let info = versionInfo(CurlConstant.versionFirst) else {
        throw CurlTransportUnavailable("curl_version_info returned nothing")
      }
      // `curl_version_info_data` starts { int age; const char *version; unsigned version_num; … }
      // and has kept that prefix since libcurl 7.10.
      version =
        info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
        ?? "unknown"
      versionNumber = info.load(fromByteOffset: 16, as: UInt32.self)
      guard versionNumber >= Self.minimumVersion else {
        throw CurlTransportUnavailable("libcurl \(version) is older than 7.68, which Convoy needs")
      }
      easyInit = try Self.symbol("curl_easy_init", in: handle)
      easyCleanup = try Self.symbol("curl_easy_cleanup", in: handle)
      easyReset = try Self.symbol("curl_easy_reset", in: handle)
      easySetLong = try Self.symbol("curl_easy_setopt", in: handle)
      easySetPointer = try Self.symbol("curl_easy_setopt", in: handle)
      easySetCallback = try Self.symbol("curl_easy_setopt", in: handle)
      easySetProgressCallback = try Self.symbol("curl_easy_setopt", in: handle)
      easySetTrailerCallback = try Self.symbol("curl_easy_setopt", in: handle)
      easyPause = try Self.symbol("curl_easy_pause", in: handle)
      easyGetInfo = try Self.symbol("curl_easy_getinfo", in: handle)
      easyStrerror = try Self.symbol("curl_easy_strerror", in: handle)
      easyPerform = try Self.symbol("curl_easy_perform", in: handle)
      easySend = try Self.symbol("curl_easy_send", in: handle)
      easyRecv = try Self.symbol("curl_easy_recv", in: handle)
      slistAppend = try Self.symbol("curl_slist_append", in: handle)
      slistFreeAll = try Self.symbol("curl_slist_free_all", in: handle)
      multiInit = try Self.symbol("curl_multi_init", in: handle)
      multiCleanup = try Self.symbol("curl_multi_cleanup", in: handle)
      multiSetLong = try Self.symbol("curl_multi_setopt", in: handle)
      multiAddHandle = try Self.symbol("curl_multi_add_handle", in: handle)
      multiRemoveHandle = try Self.symbol("curl_multi_remove_handle", in: handle)
      multiPerform = try Self.symbol("curl_multi_perform", in: handle)
      multiPoll = try Self.symbol("curl_multi_poll", in: handle)
      multiWakeup = try Self.symbol("curl_multi_wakeup", in: handle)
      multiInfoRead = try Self.symbol("curl_multi_info_read", in: handle)
      // Thread-safe since libcurl 7.84 and reference-counted; FoundationNetworking calls it too.
      let globalInit: @convention(c) (Int) -> Int32 = try Self.symbol(
        "curl_global_init", in: handle)
      let code = globalInit(CurlConstant.globalAll)
      guard code == 0 else {
        throw CurlTransportUnavailable("curl_global_init failed with code \(code)")
      }
    }

    private static func symbol<Function>(
      _ name: String, in handle: UnsafeMutableRawPointer
    ) throws(CurlTransportUnavailable) -> Function {
      guard let pointer = dlsym(handle, name) else {
        throw CurlTransportUnavailable("libcurl.so.4 has no \(name)")
      }
      return unsafeBitCast(pointer, to: Function.self)
    }

    /// libcurl's own sentence for an easy-interface result code.
    package func describe(_ code: Int32) -> String {
      easyStrerror(code).map { String(cString: $0) } ?? "unknown error"
    }
  }

  /// Why ``CurlTransport`` cannot run in this process: libcurl is missing, too old or incomplete.
  public struct CurlTransportUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, for logs.
    public let reason: String

    init(_ reason: String) {
      self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
  }
#endif
