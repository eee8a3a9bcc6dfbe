import Foundation

/// The in-memory layer: entries by key, bounded by a byte budget, least recently used evicted.
///
/// Recency is a counter rather than a linked list: lookups and stores stay O(1), and eviction,
/// which only runs when a store overflows the budget, scans once.
final class MemoryCacheStore: @unchecked Sendable {
  let capacity: Int
  private let lock = Lock()
  private var entries: [String: (entry: CacheEntry, cost: Int, lastUse: UInt64)] = [:]
  private var clock: UInt64 = 0
  private var usage = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  var currentUsage: Int { lock.withLock { usage } }

  func entry(for key: String) -> CacheEntry? {
    lock.withLock {
      guard var slot = entries[key] else { return nil }
      clock += 1
      slot.lastUse = clock
      entries[key] = slot
      return slot.entry
    }
  }

  /// Stores `entry`, replacing any entry under its key; an entry larger than the whole budget
  /// is not kept (and the one it replaces is dropped, since it is superseded).
  func store(_ entry: CacheEntry) {
    let cost = entry.cost
    lock.withLock {
      removeLocked(entry.key)
      guard cost <= capacity else { return }
      clock += 1
      entries[entry.key] = (entry, cost, clock)
      usage += cost
      while usage > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        removeLocked(oldest.key)
      }
    }
  }

  func remove(_ key: String) {
    lock.withLock { removeLocked(key) }
  }

  func removeAll() {
    lock.withLock {
      entries.removeAll()
      usage = 0
    }
  }

  private func removeLocked(_ key: String) {
    if let removed = entries.removeValue(forKey: key) { usage -= removed.cost }
  }
}
