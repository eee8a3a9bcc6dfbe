#if canImport(FoundationNetworking)
  import Foundation
  import FoundationNetworking

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// The delegate queue of a FoundationNetworking session: it runs each delegate event at once,
  /// on the thread that reports it, which is the session's own work queue.
  ///
  /// FoundationNetworking hands every piece of a body to the delegate queue as libcurl reads it
  /// and reads on without waiting. Behind an ordinary queue the pieces pile up whenever the
  /// network is faster than the delegate: a body limit, checked in the delegate, then saw its
  /// first mebibyte while hundreds more were already read and queued, and cancelling came that
  /// late. Run in place, a delegate event holds the work queue, which reads nothing meanwhile:
  /// the transfer goes at the pace of its receiver, and a cancel lands within a piece.
  ///
  /// The price is that code running inside a delegate event must not call into the session
  /// synchronously: `resume()`, a task's creation and (in some FoundationNetworking versions)
  /// `cancel()` wait on the work queue that is running the event. ``isDelivering`` tells such
  /// code to post its call instead.
  final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
      super.init()
      name = "Convoy URLSession delegate (inline)"
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
      let outer = Self.isDelivering
      Self.setDelivering(true)
      defer { Self.setDelivering(outer) }
      block()
    }

    /// Whether the current thread is running a delegate event of such a queue.
    static var isDelivering: Bool { pthread_getspecific(deliveringKey) != nil }

    /// Runs `work` now, or posts it to another thread when it is called from inside a delegate
    /// event, where a synchronous call into the session would wait on itself.
    static func outsideDelivery(_ work: @escaping @Sendable () -> Void) {
      if isDelivering {
        sessionCalls.async(execute: work)
      } else {
        work()
      }
    }

    /// Where calls posted from delegate events run. A queue of its own gets a thread even when
    /// every thread of the shared pool is busy, so a cancel posted here lands at once; on a
    /// busy pool, the work queue would meanwhile read on at full speed.
    static let sessionCalls = DispatchQueue(label: "Convoy URLSession calls")

    private static func setDelivering(_ delivering: Bool) {
      // Any non-null pointer marks a thread as delivering; this one is never dereferenced.
      pthread_setspecific(deliveringKey, delivering ? UnsafeRawPointer(bitPattern: 1) : nil)
    }

    private static let deliveringKey: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }()
  }
#endif
