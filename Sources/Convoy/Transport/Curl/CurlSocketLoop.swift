#if os(Linux)
  import Foundation
  import Glibc

  /// What ``CurlSocketLoop`` tells the owner of a socket it watches.
  protocol CurlSocketLoopClient: AnyObject, Sendable {
    /// On the loop's thread: the socket signalled. Edge-triggered: `readable` once per arrival
    /// (or the end, or an error) after a read that found nothing left, `writable` once the
    /// socket takes writes again after a write it refused (and alongside other signals).
    func socketSignalled(readable: Bool, writable: Bool)
  }

  /// One thread, for the whole process, that waits on the sockets of every WebSocket on libcurl
  /// with epoll and runs what they have to do: an arrival costs one wake-up of this thread,
  /// which reads and hands the bytes over itself.
  ///
  /// Sockets are watched edge-triggered for reading and writing at once, from registration to
  /// removal, so that pausing, resuming and waiting for room never change the registration (no
  /// `epoll_ctl` per message). The price is the edge's rule, which clients keep: a read goes on
  /// until libcurl says `CURLE_AGAIN` (then a new arrival signals again), or the client posts a
  /// read of its own to finish; a client that skips a signal (paused) posts a read when it
  /// resumes. The same covers TLS: libcurl may hold decrypted bytes the socket no longer
  /// signals, and a read until `CURLE_AGAIN` takes them too.
  ///
  /// Work posted from other threads wakes the loop through an eventfd, only when the loop
  /// sleeps in `epoll_wait`; posted work runs after the socket signals of the same turn.
  ///
  /// The loop is also a `TaskExecutor`: a task that prefers it runs its code on the loop's
  /// thread, so a message read there resumes its reader on the same thread, and the answer the
  /// reader sends is written from there too, with no thread woken per message.
  final class CurlSocketLoop: TaskExecutor, @unchecked Sendable {
    private let epoll: Epoll
    private let epollDescriptor: Int32
    private let wakeDescriptor: Int32
    private let lock = Lock()
    // Guarded by `lock`.
    private var clients: [UInt64: WeakClient] = [:]
    private var nextIdentifier: UInt64 = 1
    private var posted: [@Sendable () -> Void] = []
    /// The jobs of tasks that prefer the loop as their executor, to run like posted work.
    private var jobs: [UnownedJob] = []
    /// Whether the loop sleeps (or is about to) in `epoll_wait` with nothing posted, and no
    /// wake-up is on its way: only then does posting write to the eventfd.
    private var isWaiting = false

    /// Where reads land before they are copied out, the size of one `curl_easy_recv`; one for
    /// the process, since only the loop's thread reads into it.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// The size of ``readBuffer``.
    static let readSize = 64 << 10
    /// The most signals taken from one `epoll_wait`.
    private static let batchSize = 64
    /// The identifier of the eventfd's registration; clients' start at 1.
    private static let wakeIdentifier: UInt64 = 0

    private static let shared = Locked<CurlSocketLoop?>(nil)

    /// The process's loop, started on first use.
    static func running() throws(TransportFailure) -> CurlSocketLoop {
      try shared.withLock { loop -> Result<CurlSocketLoop, TransportFailure> in
        if let loop { return .success(loop) }
        return Result { () throws(TransportFailure) in try CurlSocketLoop() }.map {
          loop = $0
          return $0
        }
      }.get()
    }

    private init() throws(TransportFailure) {
      guard let epoll = Epoll.shared else {
        throw TransportFailure(kind: .other, detail: "this C library has no epoll")
      }
      self.epoll = epoll
      epollDescriptor = epoll.create(Epoll.closeOnExec)
      guard epollDescriptor >= 0 else {
        throw TransportFailure(kind: .other, detail: "epoll_create1 failed: errno \(errno)")
      }
      wakeDescriptor = epoll.eventfd(0, Epoll.eventNonBlocking | Epoll.closeOnExec)
      guard wakeDescriptor >= 0 else {
        Glibc.close(epollDescriptor)
        throw TransportFailure(kind: .other, detail: "eventfd failed: errno \(errno)")
      }
      readBuffer = .allocate(byteCount: Self.readSize, alignment: 16)
      // Level-triggered: the loop reads the eventfd back to zero whenever it signals.
      guard
        epoll.control(epollDescriptor, wakeDescriptor, Epoll.add, Epoll.input, Self.wakeIdentifier)
      else {
        let failure = TransportFailure(kind: .other, detail: "epoll_ctl failed: errno \(errno)")
        readBuffer.deallocate()
        Glibc.close(wakeDescriptor)
        Glibc.close(epollDescriptor)
        throw failure
      }
      Thread.detachNewThread(named: "Convoy sockets") { [self] in run() }
    }

    /// A new identifier for a client's socket, for ``watch(_:as:for:)``.
    func makeIdentifier() -> UInt64 {
      lock.withLock {
        defer { nextIdentifier += 1 }
        return nextIdentifier
      }
    }

    /// Watches `socket` for `client` (held weakly) until ``unwatch(_:as:)``.
    func watch(_ socket: Int32, as identifier: UInt64, for client: any CurlSocketLoopClient)
      throws(TransportFailure)
    {
      lock.withLock { clients[identifier] = WeakClient(client: client) }
      let events = Epoll.input | Epoll.output | Epoll.peerClosed | Epoll.edgeTriggered
      guard epoll.control(epollDescriptor, socket, Epoll.add, events, identifier) else {
        let failure = TransportFailure(kind: .other, detail: "epoll_ctl failed: errno \(errno)")
        lock.withLock { clients[identifier] = nil }
        throw failure
      }
    }

    /// Stops watching `socket`; call before the socket is closed, so that a descriptor reused
    /// by another connection is never watched twice. A signal already taken from epoll may
    /// still reach the client afterwards: clients ignore what comes once they closed.
    func unwatch(_ socket: Int32, as identifier: UInt64) {
      _ = epoll.control(epollDescriptor, socket, Epoll.delete, 0, identifier)
      lock.withLock { clients[identifier] = nil }
    }

    /// Runs `work` on the loop's thread soon, after the signals of the loop's current turn.
    func post(_ work: @escaping @Sendable () -> Void) {
      wakeAfter { posted.append(work) }
    }

    /// Runs `job` on the loop's thread soon, as ``post(_:)`` runs work.
    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      wakeAfter { jobs.append(job) }
    }

    /// Adds work under `lock` with `add`, then wakes the loop if it sleeps.
    private func wakeAfter(_ add: () -> Void) {
      let wake = lock.withLock {
        add()
        defer { isWaiting = false }
        return isWaiting
      }
      guard wake else { return }
      var one: UInt64 = 1
      _ = Glibc.write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// The loop: never ends (the loop serves the process for as long as it runs).
    private func run() {
      let events = UnsafeMutableRawPointer.allocate(
        byteCount: Epoll.eventSize * Self.batchSize, alignment: 8)
      var signalled: [(client: any CurlSocketLoopClient, readable: Bool, writable: Bool)] = []
      var work: [@Sendable () -> Void] = []
      var ready: [UnownedJob] = []
      let executor = asUnownedTaskExecutor()
      while true {
        let timeout: Int32 = lock.withLock {
          guard posted.isEmpty, jobs.isEmpty else { return 0 }
          isWaiting = true
          return -1
        }
        let count = max(epoll.wait(epollDescriptor, events, Int32(Self.batchSize), timeout), 0)
        var woken = false
        // One turn of the lock for the whole batch: the clients, and the work posted so far.
        lock.withLock {
          isWaiting = false
          swap(&work, &posted)
          for index in 0..<Int(count) {
            let (flags, identifier) = Epoll.event(at: index, in: events)
            if identifier == Self.wakeIdentifier {
              woken = true
            } else if let client = clients[identifier]?.client {
              let readable = flags & (Epoll.input | Epoll.peerClosed | Epoll.failures) != 0
              let writable = flags & (Epoll.output | Epoll.failures) != 0
              signalled.append((client, readable, writable))
            }
          }
        }
        if woken {
          var value: UInt64 = 0
          _ = Glibc.read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
        }
        for signal in signalled {
          signal.client.socketSignalled(readable: signal.readable, writable: signal.writable)
        }
        // Emptied here, not later: the last reference to a client may go, and its `deinit`
        // unwatches, which takes `lock`.
        signalled.removeAll(keepingCapacity: true)
        for job in work { job() }
        work.removeAll(keepingCapacity: true)
        // Tasks last, taken now: a reader the signals of this turn resumed runs in this turn,
        // before the loop waits again. Jobs its run enqueues wait for the next turn.
        lock.withLock { swap(&ready, &jobs) }
        for job in ready { job.runSynchronously(on: executor) }
        ready.removeAll(keepingCapacity: true)
      }
    }
  }

  /// A client the loop does not keep alive: a channel nobody holds is closed by its `deinit`.
  private struct WeakClient {
    weak var client: (any CurlSocketLoopClient)?
  }

  /// epoll and eventfd, looked up in the C library already loaded: the Glibc module of Swift
  /// does not map `sys/epoll.h` and Convoy has no C target to map it with.
  private struct Epoll: Sendable {
    let create: @convention(c) (Int32) -> Int32
    let controlFunction: @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    let wait: @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    let eventfd: @convention(c) (UInt32, Int32) -> Int32

    static let shared: Epoll? = {
      guard let create = dlsym(nil, "epoll_create1"), let control = dlsym(nil, "epoll_ctl"),
        let wait = dlsym(nil, "epoll_wait"), let eventfd = dlsym(nil, "eventfd")
      else { return nil }
      return Epoll(
        create: unsafeBitCast(create, to: (@convention(c) (Int32) -> Int32).self),
        controlFunction: unsafeBitCast(
          control,
          to: (@convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32).self),
        wait: unsafeBitCast(
          wait, to: (@convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32).self),
        eventfd: unsafeBitCast(eventfd, to: (@convention(c) (UInt32, Int32) -> Int32).self))
    }()

    // The values of sys/epoll.h and sys/eventfd.h, the same on every Linux architecture.
    static let input: UInt32 = 0x001
    static let output: UInt32 = 0x004
    static let failures: UInt32 = 0x008 | 0x010  // EPOLLERR | EPOLLHUP
    static let peerClosed: UInt32 = 0x2000  // EPOLLRDHUP
    static let edgeTriggered: UInt32 = 1 << 31
    static let add: Int32 = 1
    static let delete: Int32 = 2
    static let closeOnExec: Int32 = 0o2_000_000
    static let eventNonBlocking: Int32 = 0o4000

    /// `struct epoll_event` is `{ uint32_t events; epoll_data_t data; }`, packed on x86-64 (12
    /// bytes) and naturally aligned elsewhere (16).
    #if arch(x86_64)
      static let eventSize = 12
      private static let dataOffset = 4
    #else
      static let eventSize = 16
      private static let dataOffset = 8
    #endif

    /// `epoll_ctl` with `events` and `identifier` as the event's `data.u64`; whether it worked.
    func control(
      _ epoll: Int32, _ descriptor: Int32, _ operation: Int32, _ events: UInt32,
      _ identifier: UInt64
    ) -> Bool {
      var event = (UInt64(0), UInt64(0))
      return withUnsafeMutableBytes(of: &event) { bytes in
        bytes.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
        bytes.storeBytes(of: identifier, toByteOffset: Self.dataOffset, as: UInt64.self)
        return controlFunction(epoll, operation, descriptor, bytes.baseAddress) == 0
      }
    }

    /// The flags and identifier of the `index`th event `epoll_wait` wrote to `events`.
    static func event(at index: Int, in events: UnsafeMutableRawPointer) -> (UInt32, UInt64) {
      let event = UnsafeRawPointer(events + index * eventSize)
      return (
        event.loadUnaligned(as: UInt32.self),
        event.loadUnaligned(fromByteOffset: dataOffset, as: UInt64.self)
      )
    }
  }
#endif
