#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The zlib functions permessage-deflate calls, looked up at run time in the system zlib.
///
/// Why `dlopen` and not a system-library target, as for ``CurlLibrary``: a module map needs
/// `zlib.h`, which only the `-dev` package installs, and linking `-lz` needs its `libz.so`
/// symlink; neither is on a fresh machine with only the Swift toolchain, and Convoy has no
/// package dependencies. The shared object itself is always there (libcurl, and through it
/// FoundationNetworking, links it; on Apple platforms it is part of the OS), so loading it costs
/// nothing but the look-ups.
///
/// The macros `deflateInit2` and `inflateInit2` of `zlib.h` are the functions `deflateInit2_`
/// and `inflateInit2_` with the caller's zlib version and `sizeof(z_stream)` added: that pair is
/// how zlib refuses a caller whose stream layout is not its own. ``initVersion`` is what is
/// passed as the version: zlib compares only its first character, the major version, which
/// ``load(_:)`` checks is 1, the only major version whose ``ZStream`` this is.
///
/// `@unchecked Sendable`: every stored property is a constant; the function pointers point into
/// a library that is never unloaded, and zlib's functions may run on any thread as long as one
/// stream is not used by two at once (which its owners ensure).
package struct ZlibLibrary: @unchecked Sendable {
  package typealias Stream = UnsafeMutablePointer<ZStream>

  /// `zlibVersion()`, e.g. `1.2.13`.
  package let version: String
  /// The version string passed to the init functions; a constant inside zlib.
  package let initVersion: UnsafePointer<CChar>

  // A pointer to a Swift struct is not representable in C, so the functions take the stream
  // as a raw pointer; the methods below take it typed.
  private let deflateInit2Function:
    @convention(c) (
      UnsafeMutableRawPointer, CInt, CInt, CInt, CInt, CInt, UnsafePointer<CChar>, CInt
    ) -> CInt
  private let deflateFunction: @convention(c) (UnsafeMutableRawPointer, CInt) -> CInt
  private let deflateEndFunction: @convention(c) (UnsafeMutableRawPointer) -> CInt
  private let deflateResetFunction: @convention(c) (UnsafeMutableRawPointer) -> CInt
  private let inflateInit2Function:
    @convention(c) (UnsafeMutableRawPointer, CInt, UnsafePointer<CChar>, CInt) -> CInt
  private let inflateFunction: @convention(c) (UnsafeMutableRawPointer, CInt) -> CInt
  private let inflateEndFunction: @convention(c) (UnsafeMutableRawPointer) -> CInt
  private let inflateResetFunction: @convention(c) (UnsafeMutableRawPointer) -> CInt

  /// `sizeof(z_stream)` as zlib's init functions want it.
  package static let streamSize = CInt(MemoryLayout<ZStream>.size)

  #if canImport(Darwin)
    /// The path in the dyld shared cache since macOS 11: the file itself is not on disk, but
    /// `dlopen` of the path finds it.
    package static let systemLibraryName = "/usr/lib/libz.1.dylib"
  #else
    /// The soname, which every Linux distribution ships (Debian's `zlib1g`).
    package static let systemLibraryName = "libz.so.1"
  #endif

  /// The system zlib, or why it cannot be used; decided once per process.
  package static let shared = load(systemLibraryName)

  /// Loads `name`: the system zlib in production, a missing one in tests of the failure.
  static func load(_ name: String) -> Result<ZlibLibrary, ZlibUnavailable> {
    Result { () throws(ZlibUnavailable) in
      guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
        let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
        throw ZlibUnavailable("\(name) could not be loaded: \(reason)")
      }
      return try ZlibLibrary(handle: handle, name: name)
    }
  }

  private init(handle: UnsafeMutableRawPointer, name: String) throws(ZlibUnavailable) {
    let zlibVersion: @convention(c) () -> UnsafePointer<CChar>? = try Self.symbol(
      "zlibVersion", in: handle, of: name)
    guard let versionPointer = zlibVersion() else {
      throw ZlibUnavailable("\(name): zlibVersion returned nothing")
    }
    version = String(cString: versionPointer)
    guard version.hasPrefix("1.") else {
      throw ZlibUnavailable("\(name) is zlib \(version); Convoy knows the stream of zlib 1 only")
    }
    initVersion = versionPointer
    deflateInit2Function = try Self.symbol("deflateInit2_", in: handle, of: name)
    deflateFunction = try Self.symbol("deflate", in: handle, of: name)
    deflateEndFunction = try Self.symbol("deflateEnd", in: handle, of: name)
    deflateResetFunction = try Self.symbol("deflateReset", in: handle, of: name)
    inflateInit2Function = try Self.symbol("inflateInit2_", in: handle, of: name)
    inflateFunction = try Self.symbol("inflate", in: handle, of: name)
    inflateEndFunction = try Self.symbol("inflateEnd", in: handle, of: name)
    inflateResetFunction = try Self.symbol("inflateReset", in: handle, of: name)
  }

  /// `deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy)`; a negative
  /// `windowBits` makes a raw stream (no zlib header or checksum), as RFC 7692 wants.
  package func deflateInit2(
    _ stream: Stream, level: CInt, windowBits: CInt, memoryLevel: CInt, strategy: CInt
  ) -> CInt {
    deflateInit2Function(
      stream, level, ZlibConstant.deflated, windowBits, memoryLevel, strategy, initVersion,
      Self.streamSize)
  }

  package func deflate(_ stream: Stream, flush: CInt) -> CInt { deflateFunction(stream, flush) }
  package func deflateEnd(_ stream: Stream) -> CInt { deflateEndFunction(stream) }
  package func deflateReset(_ stream: Stream) -> CInt { deflateResetFunction(stream) }

  /// `inflateInit2(stream, windowBits)`; negative for a raw stream.
  package func inflateInit2(_ stream: Stream, windowBits: CInt) -> CInt {
    inflateInit2Function(stream, windowBits, initVersion, Self.streamSize)
  }

  package func inflate(_ stream: Stream, flush: CInt) -> CInt { inflateFunction(stream, flush) }
  package func inflateEnd(_ stream: Stream) -> CInt { inflateEndFunction(stream) }
  package func inflateReset(_ stream: Stream) -> CInt { inflateResetFunction(stream) }

  private static func symbol<Function>(
    _ symbol: String, in handle: UnsafeMutableRawPointer, of name: String
  ) throws(ZlibUnavailable) -> Function {
    guard let pointer = dlsym(handle, symbol) else {
      throw ZlibUnavailable("\(name) has no \(symbol)")
    }
    return unsafeBitCast(pointer, to: Function.self)
  }
}

extension ZlibLibrary {
  /// A new stream at a stable address (zlib keeps pointers into it), set up by `initialize`
  /// (`deflateInit2_` or `inflateInit2_`, named `function` in the failure).
  func startStream(
    _ function: String, _ initialize: (Stream) -> CInt
  ) throws(PerMessageDeflateError) -> Stream {
    let stream = Stream.allocate(capacity: 1)
    stream.initialize(to: ZStream())
    let code = initialize(stream)
    guard code == ZlibConstant.ok else {
      let reason = stream.pointee.message.map { String(cString: $0) }
      Self.free(stream)
      throw .zlibFailure(function: function, code: code, reason: reason)
    }
    return stream
  }

  /// Gives back the memory of a stream from ``startStream(_:_:)``, once zlib has ended it.
  static func free(_ stream: Stream) {
    stream.deinitialize(count: 1)
    stream.deallocate()
  }
}
