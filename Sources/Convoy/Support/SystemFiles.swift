#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `open(2)`, under a name no type's own `open` hides.
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  #if canImport(Glibc)
    Glibc.open(path, flags, mode)
  #elseif canImport(Musl)
    Musl.open(path, flags, mode)
  #elseif canImport(Darwin)
    Darwin.open(path, flags, mode)
  #endif
}

/// `close(2)`, under a name no type's own `close` hides.
func systemClose(_ descriptor: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.close(descriptor)
  #elseif canImport(Musl)
    Musl.close(descriptor)
  #elseif canImport(Darwin)
    Darwin.close(descriptor)
  #endif
}
