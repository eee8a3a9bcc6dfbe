import Convoy
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A browser login waits for its redirect without holding a thread of the global queue, so it
/// completes even while every one of those threads is busy with the app's own work.
///
/// On Linux, Swift's tasks run on those same threads; so the test runs on an executor of its own
/// thread, and only the listener is left to need, or not need, the busy ones.
@Suite struct LoopbackListenerBusyQueueTests {
  @Test func aLoginFinishesWhileEveryGlobalQueueThreadIsBusy() async throws {
    let executor = ThreadExecutor()
    defer { executor.stop() }
    let outcome = await withTaskExecutorPreference(executor) {
      () async -> Result<(query: String?, occupied: Bool), any Error> in
      let occupation = GlobalQueueOccupation()
      defer { occupation.release() }
      do {
        let listener = try LoopbackRedirectListener(timeout: 60) { _ in }
        // CPU-bound work holds the global queue's threads without the pool adding any.
        occupation.start(ProcessInfo.processInfo.activeProcessorCount + 2)
        guard occupation.waitUntilRunning(ProcessInfo.processInfo.activeProcessorCount)
        else { return .success((nil, false)) }
        // The browser: a thread of its own, so that nothing of it needs a dispatch queue.
        let redirect = listener.redirectURI.absoluteString + "?code=abc&state=xyz"
        Thread { _ = requestOverRawSocket(redirect) }.start()
        let received = try await listener.authorize(at: URL(string: "https://id.example.com/a")!)
        // Only a login that needed no global-queue thread ends before the occupation gives up.
        return .success((received.query, occupation.release()))
      } catch {
        return .failure(error)
      }
    }
    let login = try outcome.get()
    #expect(login.occupied, "the login finished only once the global queue's threads were free")
    #expect(login.query == "code=abc&state=xyz")
  }
}

/// Runs jobs on one thread of its own, for work that must not wait for the global queue.
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isStopped = false

  init() {
    Thread { [self] in run() }.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Lets the thread end once the jobs enqueued so far ran.
  func stop() {
    condition.lock()
    isStopped = true
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while jobs.isEmpty, !isStopped { condition.wait() }
      guard !jobs.isEmpty else {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Keeps threads of `DispatchQueue.global()` busy until released, or for at most 30 seconds so
/// that a listener that does need one of them fails the test instead of hanging it.
private final class GlobalQueueOccupation: @unchecked Sendable {
  private let condition = NSCondition()
  private var running = 0
  private var isReleased = false
  private var gaveUp = false

  func start(_ count: Int) {
    let limit = Date().addingTimeInterval(30)
    for _ in 0..<count {
      DispatchQueue.global().async { [self] in
        condition.lock()
        running += 1
        condition.broadcast()
        condition.unlock()
        while !isOver() {
          guard Date() < limit else {
            condition.withLock { gaveUp = true }
            return
          }
          sched_yield()
        }
      }
    }
  }

  private func isOver() -> Bool {
    condition.withLock { isReleased }
  }

  /// Whether at least `count` occupiers run at once within 30 seconds. Blocks the calling
  /// thread, which is the test's own (a task sleeping would need the busy threads to wake).
  func waitUntilRunning(_ count: Int) -> Bool {
    let deadline = Date().addingTimeInterval(30)
    condition.lock()
    defer { condition.unlock() }
    while running < count {
      guard condition.wait(until: deadline) else { return running >= count }
    }
    return true
  }

  /// Lets the occupiers go; `true` when none had given up by then.
  @discardableResult
  func release() -> Bool {
    condition.withLock {
      isReleased = true
      return !gaveUp
    }
  }
}

/// Sends `GET <url>` over a blocking socket and reads the answer; what a browser does, on the
/// calling thread only.
private func requestOverRawSocket(_ url: String) -> String {
  guard let components = URLComponents(string: url), let port = components.port else { return "" }
  #if canImport(Darwin)
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
  #else
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #endif
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
  guard connected else { return "" }
  let target = components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? "")
  let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
  _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
  var answer: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1_024)
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { break }
    answer += buffer[0..<count]
  }
  return String(decoding: answer, as: UTF8.self)
}
