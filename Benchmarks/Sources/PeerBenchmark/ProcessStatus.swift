import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// This process's user + system CPU time so far, in seconds (getrusage). nginx is another
/// process, so this is the clients' cost alone.
func processCPUTime() -> Double {
  let usage = processUsage()
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// How many times this process's threads were switched out so far, voluntarily (to wait) or
/// not (preempted): every hand-over of work to a sleeping thread shows here.
func processContextSwitches() -> Int {
  let usage = processUsage()
  return usage.ru_nvcsw + usage.ru_nivcsw
}

private func processUsage() -> rusage {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage
}

/// This process's peak resident set (`VmHWM`), in KiB; 0 if unknown.
func peakResidentKilobytes() -> Int {
  statusField("VmHWM")
}

/// This process's resident set now (`VmRSS`), in KiB; 0 if unknown.
func residentKilobytes() -> Int {
  statusField("VmRSS")
}

private func statusField(_ name: String) -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}

/// The 1-, 5- and 15-minute load averages, for judging how busy the machine was.
func loadAverage() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

/// Runs `work` in a task and blocks the calling (main) thread until it is done, so that the
/// benchmark's own sequencing stays plain synchronous code.
func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
  let done = DispatchSemaphore(value: 0)
  let result = ResultBox<Value>()
  Task {
    result.value = await work()
    done.signal()
  }
  done.wait()
  return result.value!
}

/// Written once by the task, read once after the semaphore: the semaphore orders the two.
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}

/// Progress goes to standard error, so that standard output is the table alone.
func printProgress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\n".utf8))
}

extension String {
  /// The string followed by spaces up to `width` columns (at least one space).
  func padded(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
