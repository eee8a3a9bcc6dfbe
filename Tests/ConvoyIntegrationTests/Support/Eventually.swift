import Foundation

/// Whether `condition` holds within `seconds` (generous: it bounds a hang, it never times a
/// healthy run), checked every 10 ms.
func eventually(within seconds: TimeInterval = 30, _ condition: @Sendable () -> Bool) async
  -> Bool
{
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    guard Date() < deadline else { return false }
    try? await Task.sleep(nanoseconds: 10_000_000)
  }
  return true
}
