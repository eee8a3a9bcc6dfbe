#if os(Linux)
  import Foundation

  /// Easy handles of one ``CurlTransport``, reset and kept for its next transfers.
  ///
  /// Why: `curl_easy_init` allocates and fills a handle of several kilobytes (with a 16 KiB
  /// receive buffer) and `curl_easy_cleanup` frees it all again, once per call; raw libcurl
  /// programs keep their handles, which was part of the gap between `CurlTransport` and them in
  /// `convoy-benchmarks transports`. `curl_easy_reset` puts every option back to its default,
  /// so a recycled handle carries nothing of the last request but what libcurl keeps on purpose
  /// (its caches of DNS answers and TLS sessions, which match on host and TLS settings before
  /// use). A handle is recycled only after it left the multi handle.
  ///
  /// At most ``limit`` handles wait here; the rest are cleaned up. The pool cleans up what it
  /// holds when the transport and its transfers are gone.
  final class EasyHandlePool: @unchecked Sendable {
    /// How many idle handles are kept: a few more than the transfers a transport usually runs
    /// at once.
    let limit: Int
    private let library: CurlLibrary
    private let idle = Locked<[CurlLibrary.Easy]>([])

    init(library: CurlLibrary, limit: Int = 16) {
      self.library = library
      self.limit = limit
    }

    deinit {
      idle.withLock { handles in handles.forEach(library.easyCleanup) }
    }

    /// A handle with libcurl's default options: an idle one, else a new one (`nil` when libcurl
    /// cannot make one).
    func take() -> CurlLibrary.Easy? {
      idle.withLock { $0.popLast() } ?? library.easyInit()
    }

    /// Resets `easy` and keeps it for a later transfer, or cleans it up when the pool is full.
    /// The caller must have removed it from the multi handle and must not use it again.
    func recycle(_ easy: CurlLibrary.Easy) {
      library.easyReset(easy)
      let kept = idle.withLock { handles -> Bool in
        guard handles.count < limit else { return false }
        handles.append(easy)
        return true
      }
      if !kept { library.easyCleanup(easy) }
    }

    /// How many handles wait in the pool, for tests.
    var idleCount: Int { idle.withLock { $0.count } }
  }
#endif
