import Foundation

/// The disk layer: one file per entry in a directory this store owns, bounded by a byte budget,
/// least recently used evicted.
///
/// Files are written to a temporary name and renamed into place, so a reader sees a whole
/// entry or none; anything unreadable is deleted and treated as a miss. The directory is
/// created owner-only (`0700`) because stored answers may be private to the signed-in user.
/// Recency survives a restart as the files' modification dates.
final class DiskCacheStore: @unchecked Sendable {
  let directory: URL
  let capacity: Int
  private static let suffix = ".convoycache"
  private let lock = Lock()
  private var index: [String: (size: Int, lastUse: Date)]?
  private var usage = 0

  init(directory: URL, capacity: Int) {
    self.directory = directory
    self.capacity = max(0, capacity)
  }

  var currentUsage: Int {
    lock.withLock {
      loadIndexIfNeeded()
      return usage
    }
  }

  func entry(for key: String, now: Date) -> CacheEntry? {
    let name = Self.fileName(for: key)
    return lock.withLock {
      loadIndexIfNeeded()
      guard index?[name] != nil else { return nil }
      guard let data = try? Data(contentsOf: fileURL(name)),
        let entry = CacheEntryCoding.decode(data)
      else {
        removeLocked(name)
        return nil
      }
      guard entry.key == key else { return nil }
      index?[name]?.lastUse = now
      return entry
    }
  }

  func store(_ entry: CacheEntry, now: Date) {
    let name = Self.fileName(for: entry.key)
    guard let data = CacheEntryCoding.encode(entry) else { return }
    lock.withLock {
      loadIndexIfNeeded()
      removeLocked(name)
      guard index != nil, data.count <= capacity else { return }
      let temporary = fileURL(".\(UUID().uuidString).tmp")
      guard
        FileManager.default.createFile(
          atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]),
        rename(temporary.path, fileURL(name).path) == 0
      else {
        try? FileManager.default.removeItem(at: temporary)
        return
      }
      index?[name] = (data.count, now)
      usage += data.count
      evictLocked()
    }
  }

  func remove(_ key: String) {
    lock.withLock {
      loadIndexIfNeeded()
      removeLocked(Self.fileName(for: key))
    }
  }

  func removeAll() {
    lock.withLock {
      loadIndexIfNeeded()
      for name in index?.keys.map({ $0 }) ?? [] { removeLocked(name) }
    }
  }

  private func evictLocked() {
    guard usage > capacity, let index else { return }
    for (name, _) in index.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard usage > capacity else { return }
      removeLocked(name)
    }
  }

  private func removeLocked(_ name: String) {
    try? FileManager.default.removeItem(at: fileURL(name))
    if let removed = index?.removeValue(forKey: name) { usage -= removed.size }
  }

  /// Reads the directory once. A directory that cannot be created leaves the layer disabled
  /// (`index` stays `nil`) instead of failing calls; leftovers of interrupted writes are removed.
  private func loadIndexIfNeeded() {
    guard index == nil else { return }
    let manager = FileManager.default
    do {
      try manager.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      return
    }
    var found: [String: (size: Int, lastUse: Date)] = [:]
    let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
    let files =
      (try? manager.contentsOfDirectory(
        at: directory, includingPropertiesForKeys: keys, options: [])) ?? []
    for file in files {
      let name = file.lastPathComponent
      if name.hasSuffix(".tmp") {
        try? manager.removeItem(at: file)
      } else if name.hasSuffix(Self.suffix),
        let values = try? file.resourceValues(forKeys: Set(keys))
      {
        found[name] = (values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
      }
    }
    index = found
    usage = found.values.reduce(0) { $0 + $1.size }
    evictLocked()
  }

  private func fileURL(_ name: String) -> URL {
    directory.appendingPathComponent(name, isDirectory: false)
  }

  /// A stable file name for `key`: 64-bit FNV-1a, because Swift's `hashValue` changes between
  /// launches and no digest library is available on every platform. A collision is harmless:
  /// the stored key is compared on read.
  static func fileName(for key: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + suffix
  }
}
