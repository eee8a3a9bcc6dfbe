#if os(Linux)
  import Convoy
  import Foundation

  /// The ceiling: the system libcurl driven straight from one thread, the way a C program would
  /// (one multi handle, one reused easy handle per request in flight, no Swift objects per
  /// request, no thread hand-overs). Nothing built on the same libcurl can be faster, so it shows
  /// how much of a target the library itself can reach on this machine.
  struct RawLibcurlLoop: Sendable {
    private let library: CurlLibrary

    init?() {
      guard case .success(let library) = CurlLibrary.shared else { return nil }
      self.library = library
    }

    /// Fetches `url` with `inFlight` transfers at a time until `budget` is spent; returns when
    /// every transfer it started has finished.
    func run(url: URL, inFlight: Int, budget: RequestBudget) {
      guard let multi = library.multiInit() else { return }
      defer { _ = library.multiCleanup(multi) }
      let receivedBytes = UnsafeMutablePointer<Int>.allocate(capacity: inFlight)
      defer { receivedBytes.deallocate() }
      var handles: [CurlLibrary.Easy] = []
      defer { handles.forEach(library.easyCleanup) }
      let address = url.absoluteString
      for slot in 0..<inFlight {
        guard let easy = library.easyInit() else { return }
        handles.append(easy)
        address.withCString { _ = library.easySetPointer(easy, CurlConstant.url, $0) }
        _ = library.easySetLong(easy, CurlConstant.noSignal, 1)
        _ = library.easySetCallback(easy, CurlConstant.writeFunction, countBytes)
        _ = library.easySetPointer(easy, CurlConstant.writeData, receivedBytes + slot)
        _ = library.easySetCallback(easy, CurlConstant.headerFunction, ignoreBytes)
        receivedBytes[slot] = 0
        if budget.claim() { _ = library.multiAddHandle(multi, easy) }
      }
      var running: Int32 = 1
      var remaining: Int32 = 0
      while running > 0 {
        _ = library.multiPerform(multi, &running)
        while let message = library.multiInfoRead(multi, &remaining) {
          guard message.load(as: Int32.self) == CurlConstant.messageDone else { continue }
          let easy = message.load(fromByteOffset: 8, as: CurlLibrary.Easy.self)
          let code = message.load(fromByteOffset: 16, as: Int32.self)
          _ = library.multiRemoveHandle(multi, easy)
          guard let slot = handles.firstIndex(of: easy) else { continue }
          budget.record(code == 0 && receivedBytes[slot] > 0)
          receivedBytes[slot] = 0
          if budget.claim() {
            _ = library.multiAddHandle(multi, easy)
            running += 1
          }
        }
        if running > 0 { _ = library.multiPoll(multi, nil, 0, 1_000, nil) }
      }
    }
  }

  private let countBytes: CurlLibrary.DataCallback = { _, size, count, counter in
    counter?.assumingMemoryBound(to: Int.self).pointee += size * count
    return size * count
  }

  private let ignoreBytes: CurlLibrary.DataCallback = { _, size, count, _ in size * count }
#endif
