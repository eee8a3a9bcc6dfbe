#if os(Linux)
  import Foundation

  /// The one thread that drives a libcurl multi handle.
  ///
  /// libcurl handles are not thread-safe, so every call on the multi handle, and on an easy handle
  /// once it has been added, happens here. Other threads only post work (under a lock) and call
  /// `curl_multi_wakeup`, the one multi function documented as callable from any thread, to end the
  /// thread's `curl_multi_poll` early.
  final class CurlMultiThread: @unchecked Sendable {
    private let library: CurlLibrary
    private let multi: CurlLibrary.Multi

    private let lock = Lock()
    private var submitted: [CurlTransfer] = []
    private var cancelled: [CurlTransfer] = []
    private var resumed: [CurlTransfer] = []
    private var resumedSending: [CurlTransfer] = []
    private var isStopping = false
    /// Whether the loop is in (or about to enter) `curl_multi_poll` with nothing posted, and no
    /// wake-up is on its way yet. Only then does posting need `curl_multi_wakeup`: a loop that is
    /// awake looks at the posted work before it polls again, so with many transfers in flight
    /// most submissions skip the system call and the wake-up it causes.
    private var isWaitingForWork = false

    /// The transfers whose easy handles are in the multi handle; holding them here keeps the
    /// objects libcurl's callbacks point at alive. Touched by the loop thread only.
    private var active: [CurlLibrary.Easy: CurlTransfer] = [:]
    /// The deliveries of transfers that left `active`, so that `deliveries` never goes down.
    /// Loop thread only.
    private var retiredDeliveries = 0
    /// How many transfers in `active` may be HTTP/2 streams sharing a connection. Loop thread
    /// only.
    private var activeMultiplexable = 0
    /// How many times libcurl handed any transfer of this loop bytes of its answer.
    private var deliveries: Int {
      active.values.reduce(retiredDeliveries) { $0 &+ $1.deliveries }
    }
    /// The most `curl_multi_perform` calls in a row before the loop polls again, so that a
    /// stream that never stops delivering cannot keep the loop from new submissions.
    private static let performsInARow = 8

    init(library: CurlLibrary) throws(CurlTransportUnavailable) {
      guard let multi = library.multiInit() else {
        throw CurlTransportUnavailable("curl_multi_init failed")
      }
      self.library = library
      self.multi = multi
      // The default since 7.62, stated so that an HTTPS server offering HTTP/2 gets one connection
      // carrying many transfers.
      _ = library.multiSetLong(multi, CurlConstant.multiPipelining, CurlConstant.pipeMultiplex)
      Thread.detachNewThread(named: "Convoy curl") { [self] in run() }
    }

    /// Runs only after the loop thread has exited (it holds a strong reference while it runs),
    /// so no other thread can be inside `curl_multi_wakeup` on this handle any more.
    deinit {
      _ = library.multiCleanup(multi)
    }

    /// Hands a configured transfer to the loop; `false` once the loop is stopping.
    func submit(_ transfer: CurlTransfer) -> Bool {
      post { submitted.append(transfer) }
    }

    /// Asks the loop to detach a transfer that has already reported its cancellation.
    func cancel(_ transfer: CurlTransfer) {
      _ = post { cancelled.append(transfer) }
    }

    /// Asks the loop to let a paused transfer receive again (`curl_easy_pause` must be called on
    /// the thread that drives the multi handle).
    func resume(_ transfer: CurlTransfer) {
      _ = post { resumed.append(transfer) }
    }

    /// Asks the loop to let a transfer whose streamed body had nothing ready send again.
    func resumeSending(_ transfer: CurlTransfer) {
      _ = post { resumedSending.append(transfer) }
    }

    /// Ends the loop; transfers still running complete as cancelled.
    func stop() {
      lock.withLock {
        isStopping = true
        isWaitingForWork = false
      }
      _ = library.multiWakeup(multi)
    }

    /// Records work for the loop and wakes it if it is waiting; `false` once the loop is stopping.
    private func post(_ record: () -> Void) -> Bool {
      let (accepted, wake) = lock.withLock { () -> (Bool, Bool) in
        guard !isStopping else { return (false, false) }
        record()
        defer { isWaitingForWork = false }
        return (true, isWaitingForWork)
      }
      // A wake-up sent before the loop reaches `curl_multi_poll` is not lost: it stays pending and
      // ends that poll at once.
      if wake { _ = library.multiWakeup(multi) }
      return accepted
    }

    private func run() {
      var running: Int32 = 0
      var pending: Int32 = 0
      while true {
        let (newTransfers, cancellations, resumptions, sendings, stopping) = lock.withLock {
          defer {
            submitted.removeAll(keepingCapacity: true)
            cancelled.removeAll(keepingCapacity: true)
            resumed.removeAll(keepingCapacity: true)
            resumedSending.removeAll(keepingCapacity: true)
          }
          return (submitted, cancelled, resumed, resumedSending, isStopping)
        }
        for transfer in newTransfers where !transfer.isCompleted {
          if library.multiAddHandle(multi, transfer.easy) == 0 {
            active[transfer.easy] = transfer
            if transfer.mayMultiplex { activeMultiplexable += 1 }
          } else {
            transfer.abandon(reason: "curl_multi_add_handle failed")
          }
        }
        for transfer in cancellations {
          if let transfer = retire(transfer.easy) {
            _ = library.multiRemoveHandle(multi, transfer.easy)
            transfer.abandon(reason: "cancelled by the caller")
          }
        }
        for transfer in resumptions where active[transfer.easy] === transfer {
          transfer.continueReceiving()
        }
        for transfer in sendings where active[transfer.easy] === transfer {
          transfer.continueSending()
        }
        if stopping { break }
        performWhileDelivering(&running)
        // Completions often post the next transfer from this very thread: take it at once.
        let mayWait = lock.withLock { () -> Bool in
          guard submitted.isEmpty, cancelled.isEmpty, resumed.isEmpty, resumedSending.isEmpty,
            !isStopping
          else {
            return false
          }
          isWaitingForWork = true
          return true
        }
        guard mayWait else { continue }
        // libcurl shortens the wait to its own next timer; the cap only bounds an idle thread.
        _ = library.multiPoll(multi, nil, 0, active.isEmpty ? 60_000 : 1_000, &pending)
        lock.withLock { isWaitingForWork = false }
      }
      for transfer in active.values {
        _ = library.multiRemoveHandle(multi, transfer.easy)
        transfer.abandon(reason: "the transport was shut down")
      }
      active.removeAll()
    }

    /// Runs `curl_multi_perform`, again as long as it delivered bytes to a transfer while other
    /// transfers that may share its HTTP/2 connection are in flight.
    ///
    /// Why: over HTTP/2 one read often brings the frames of several streams. libcurl (7.88)
    /// buffers the frames of a stream whose transfer it already visited in that pass and
    /// leaves them there: nothing is left on the socket to end `curl_multi_poll`, so the
    /// answer waited for the poll's cap, a whole second (seen in the peer benchmark's jobs of 8
    /// over HTTPS: the next `curl_multi_perform` completed every waiting transfer at once).
    /// Another pass takes the buffered frames. With one HTTPS transfer in flight there is no
    /// other stream's to leave behind, and plain HTTP/1.1 transfers each have a socket of their
    /// own: neither pays for the extra pass.
    private func performWhileDelivering(_ running: inout Int32) {
      for _ in 0..<Self.performsInARow {
        let before = activeMultiplexable > 1 ? deliveries : nil
        _ = library.multiPerform(multi, &running)
        completeFinishedTransfers()
        guard let before, !active.isEmpty, deliveries != before else { return }
      }
    }

    /// Takes a transfer out of `active`, keeping its deliveries in the total.
    private func retire(_ easy: CurlLibrary.Easy) -> CurlTransfer? {
      guard let transfer = active.removeValue(forKey: easy) else { return nil }
      retiredDeliveries &+= transfer.deliveries
      if transfer.mayMultiplex { activeMultiplexable -= 1 }
      return transfer
    }

    private func completeFinishedTransfers() {
      var remaining: Int32 = 0
      while let message = library.multiInfoRead(multi, &remaining) {
        // `CURLMsg` is { CURLMSG msg; CURL *easy_handle; union { void *p; CURLcode result; } data }.
        guard message.load(as: Int32.self) == CurlConstant.messageDone else { continue }
        let easy = message.load(fromByteOffset: 8, as: CurlLibrary.Easy.self)
        let code = message.load(fromByteOffset: 16, as: Int32.self)
        guard let transfer = retire(easy) else { continue }
        _ = library.multiRemoveHandle(multi, easy)
        transfer.finish(code: code)
      }
    }
  }
#endif
