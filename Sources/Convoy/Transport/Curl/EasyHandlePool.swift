#if os(Linux)
  import Foundation

  /// Easy handles of one ``CurlTransport``, configured with what every transfer of the transport
  /// sets alike and kept for its next transfers.
  ///
  /// Why: `curl_easy_init` allocates and fills a handle of several kilobytes (with a 16 KiB
  /// receive buffer) and `curl_easy_cleanup` frees it all again, once per call; raw libcurl
  /// programs keep their handles. Resetting a kept handle (`curl_easy_reset`) and setting its
  /// dozen options again is a cost of its own too, so a handle keeps its transport's options
  /// (TLS, proxy, callbacks, decoding) and a transfer sets only its own.
  ///
  /// A handle comes back from a transfer either *clean* or in need of a reset:
  /// - clean when the transfer set nothing beyond the options every transfer sets again (URL,
  ///   header list, callbacks' data, timeouts) and finished: a plain `GET` answered in full. The
  ///   next transfer overwrites all it set.
  /// - otherwise (a body, another method, a pause, a failure or a cancellation), it is reset, so
  ///   that every option goes back to libcurl's default, and prepared again. Nothing of such a
  ///   request carries over but what libcurl keeps on purpose (its caches of DNS answers and TLS
  ///   sessions, which match on host and TLS settings before use).
  ///
  /// A handle is recycled only after it left the multi handle. At most ``limit`` handles wait
  /// here; the rest are cleaned up. The pool cleans up what it holds when the transport and its
  /// transfers are gone.
  final class EasyHandlePool: @unchecked Sendable {
    /// A kept handle and the buffer libcurl writes its failures' sentences into, which lives as
    /// long as the handle.
    struct Handle: Equatable {
      let easy: CurlLibrary.Easy
      let errorMessage: UnsafeMutablePointer<CChar>
    }

    /// How many idle handles are kept: a few more than the transfers a transport usually runs
    /// at once.
    let limit: Int
    private let library: CurlLibrary
    /// Sets the options every transfer of the transport shares on a new or reset handle.
    private let prepare: @Sendable (CurlLibrary.Easy) -> Void
    private let idle = Locked<[Handle]>([])

    init(
      library: CurlLibrary, limit: Int = 16,
      prepare: @escaping @Sendable (CurlLibrary.Easy) -> Void = { _ in }
    ) {
      self.library = library
      self.limit = limit
      self.prepare = prepare
    }

    deinit {
      idle.withLock { handles in handles.forEach(cleanUp) }
    }

    /// A prepared handle: an idle one, else a new one (`nil` when libcurl cannot make one).
    func take() -> Handle? {
      if let kept = idle.withLock({ $0.popLast() }) { return kept }
      guard let easy = library.easyInit() else { return nil }
      let errorMessage = UnsafeMutablePointer<CChar>.allocate(
        capacity: CurlConstant.errorBufferSize)
      errorMessage.initialize(to: 0)
      let handle = Handle(easy: easy, errorMessage: errorMessage)
      configure(handle)
      return handle
    }

    /// Keeps `handle` for a later transfer, reset and prepared again first when `resetting`, or
    /// cleans it up when the pool is full. The caller must have removed it from the multi handle
    /// and must not use it again.
    func recycle(_ handle: Handle, resetting: Bool) {
      guard idle.withLock({ $0.count < limit }) else { return cleanUp(handle) }
      if resetting {
        library.easyReset(handle.easy)
        configure(handle)
      }
      let kept = idle.withLock { handles -> Bool in
        guard handles.count < limit else { return false }
        handles.append(handle)
        return true
      }
      if !kept { cleanUp(handle) }
    }

    /// Cleans `handle` up instead of keeping it: for a handle that `curl_easy_reset` does not
    /// make safe to use again (one that streamed a body with a trailer callback). The
    /// transport's connections stay: they belong to the multi handle.
    func discard(_ handle: Handle) {
      cleanUp(handle)
    }

    /// How many handles wait in the pool, for tests.
    var idleCount: Int { idle.withLock { $0.count } }

    private func configure(_ handle: Handle) {
      _ = library.easySetPointer(handle.easy, CurlConstant.errorBuffer, handle.errorMessage)
      prepare(handle.easy)
    }

    private func cleanUp(_ handle: Handle) {
      library.easyCleanup(handle.easy)
      handle.errorMessage.deallocate()
    }
  }
#endif
