#if canImport(FoundationNetworking) && os(Linux)
  import Foundation
  import FoundationNetworking

  /// Stops the libcurl transfer under a FoundationNetworking task from inside one of its delegate
  /// events, where a cancel cannot land yet.
  ///
  /// A task's `cancel()` waits for the session's work queue, and libcurl's read loop holds that
  /// queue for as long as data keeps coming (tens of milliseconds at loopback speed, tens of MiB).
  /// A delegate cannot end the loop: FoundationNetworking's write callback always takes the
  /// bytes. libcurl itself can: `curl_easy_pause` may be called from inside its callbacks, and a
  /// paused transfer reads nothing more, so the loop ends and the cancel lands at once.
  ///
  /// FoundationNetworking does not hand out a task's libcurl handle, so it is read from the
  /// task's private fields with `Mirror` (`_protocolStorage` → the HTTP protocol's `easyHandle`
  /// → `rawHandle`). Nothing is trusted blindly: libcurl must accept the handle as one of its
  /// own and report the task's URL as the one it is fetching. When any step fails — another
  /// Foundation's layout, a libcurl of its own — nothing is paused and the cancel lands as it
  /// can.
  enum FoundationTransferPause {
    /// Pauses the transfer of `task`, whose delegate event is running on this thread.
    ///
    /// - Returns: Whether the transfer was paused.
    @discardableResult
    static func pause(_ task: URLSessionTask) -> Bool {
      guard InlineDelegateQueue.isDelivering, case .success(let curl) = CurlLibrary.shared,
        let expected = task.currentRequest?.url?.absoluteString,
        let handle = easyHandle(of: task)
      else { return false }
      var fetching: UnsafePointer<CChar>?
      guard curl.easyGetInfo(handle, infoEffectiveURL, &fetching) == 0,
        let fetching, String(cString: fetching) == expected
      else { return false }
      return curl.easyPause(handle, pauseAll) == 0
    }

    /// The task's libcurl handle, read from FoundationNetworking's private fields.
    private static func easyHandle(of task: URLSessionTask) -> OpaquePointer? {
      guard let storage = child("_protocolStorage", of: task),
        let urlProtocol = Mirror(reflecting: storage).children.first?.value as? URLProtocol,
        let wrapped = child("easyHandle", of: urlProtocol),
        let easy = Mirror(reflecting: wrapped).children.first?.value,
        Mirror(reflecting: easy).displayStyle == .class,
        let raw = child("rawHandle", of: easy)
      else { return nil }
      if let pointer = raw as? OpaquePointer { return pointer }
      if let pointer = raw as? UnsafeMutableRawPointer { return OpaquePointer(pointer) }
      return nil
    }

    /// The stored property `label` of `subject` or of one of its superclasses.
    private static func child(_ label: String, of subject: Any) -> Any? {
      var mirror: Mirror? = Mirror(reflecting: subject)
      while let current = mirror {
        if let found = current.children.first(where: { $0.label == label }) { return found.value }
        mirror = current.superclassMirror
      }
      return nil
    }

    /// `CURLINFO_EFFECTIVE_URL`: `CURLINFO_STRING` (0x100000) + 1.
    private static let infoEffectiveURL: Int32 = 0x10_0001
    /// `CURLPAUSE_ALL`: receiving and sending.
    private static let pauseAll: Int32 = 5
  }
#endif
