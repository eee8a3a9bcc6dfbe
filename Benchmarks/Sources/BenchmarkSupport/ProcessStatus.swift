import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// This process's user + system CPU time so far, in seconds (getrusage). The servers run in
/// other processes, so this is the clients' cost alone.
public func processCPUTime() -> Double {
  let usage = processUsage()
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// How many times this process's threads were switched out so far, voluntarily (to wait) or
/// not (preempted): every hand-over of work to a sleeping thread shows here.
public func processContextSwitches() -> Int {
  let usage = processUsage()
  return usage.ru_nvcsw + usage.ru_nivcsw
}

private func processUsage() -> rusage {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage
}

/// This process's peak resident set (`VmHWM`), in KiB; 0 if unknown.
public func peakResidentKilobytes() -> Int {
  statusField("VmHWM")
}

/// This process's resident set now (`VmRSS`), in KiB; 0 if unknown.
public func residentKilobytes() -> Int {
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
public func loadAverage() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

/// Runs `work` in a task and blocks the calling (main) thread until it is done, so that the
/// benchmark's own sequencing stays plain synchronous code.
public func runBlocking<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
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
public func printProgress(_ text: String) {
  FileHandle.standardError.write(Data("\(text)\n".utf8))
}

extension String {
  /// The string followed by spaces up to `width` columns (at least one space).
  public func padded(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}

/// The median of `values`; 0 for none.
public func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Another process's user + system CPU time so far, in seconds (`/proc/PID/stat`, in clock
/// ticks: 10 ms steps); `nil` once it is gone.
public func processCPUTime(of pid: Int32) -> Double? {
  guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let end = text.lastIndex(of: ")")
  else { return nil }
  // After the command's name in parentheses: state is field 3, utime 14 and stime 15.
  let fields = text[text.index(after: end)...].split(separator: " ")
  guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
    return nil
  }
  return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Raises this process's limit of open files to its hard limit, so that it can hold a thousand
/// sockets; returns the limit now in force.
@discardableResult
public func raiseOpenFileLimit() -> Int {
  var limit = rlimit()
  guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
  limit.rlim_cur = limit.rlim_max
  _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  return Int(limit.rlim_cur)
}
