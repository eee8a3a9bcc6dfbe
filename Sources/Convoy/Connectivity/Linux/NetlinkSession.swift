/// What a ``NetlinkConnectivityMonitor`` does with what its socket reads: keeps the
/// ``NetlinkRoutingTable``, says which dump to ask for next, and when the table is whole enough
/// to report.
///
/// At start it asks for the links, then, once their dump ends, for the routes; only then is a
/// state reported. A buffer it cannot read, a kernel that says it dropped messages or that a
/// dump changed while it was read, or a refused dump, makes it forget the table and ask for both
/// dumps again (once the dump under way, if any, ends: a socket runs one dump at a time). Kept
/// apart from the socket so that tests can feed it messages.
struct NetlinkSession: Sendable {
  /// A dump to ask the kernel for: `RTM_GETLINK` or `RTM_GETROUTE`, under a sequence number.
  struct DumpRequest: Sendable, Hashable {
    var type: UInt16
    var sequence: UInt32
  }

  private(set) var table = NetlinkRoutingTable()
  /// The dump under way and the one to ask for after it; `nil` once both are read.
  private var pending: (sequence: UInt32, next: UInt16?)?
  /// Whether the table may be stale: both dumps are asked for again once the current one ends.
  private var needsDump = false
  private var lastSequence: UInt32 = 0

  /// The first dump to ask for.
  mutating func start() -> DumpRequest {
    restart()
  }

  /// Takes the messages of one received buffer (`nil`: it could not be read) and says which dump
  /// to ask for now, if any, and the state to report: `nil` while a dump is under way.
  mutating func receive(_ messages: [NetlinkMessage]?) -> (
    request: DumpRequest?, connectivity: Connectivity?
  ) {
    var request: DumpRequest? = nil
    if let messages {
      for message in messages {
        if let next = take(message) { request = next }
      }
    } else {
      request = lostTrack()
    }
    return (request, pending == nil ? table.connectivity : nil)
  }

  /// The kernel dropped messages (`ENOBUFS` on the socket): the table is read again.
  mutating func lostTrack() -> DumpRequest? {
    guard pending == nil else {
      needsDump = true
      return nil
    }
    return restart()
  }

  private mutating func take(_ message: NetlinkMessage) -> DumpRequest? {
    table.apply(message)
    switch message {
    case .lostTrack:
      return lostTrack()
    case .done(let sequence) where sequence == pending?.sequence:
      guard let next = pending?.next else {
        pending = nil
        return needsDump ? restart() : nil
      }
      return ask(next, then: nil)
    case .error(let sequence, let code) where sequence == pending?.sequence && code != 0:
      // The kernel could not dump now (EBUSY, EINTR): ask again.
      pending = nil
      return restart()
    default:
      return nil
    }
  }

  private mutating func restart() -> DumpRequest {
    table = NetlinkRoutingTable()
    needsDump = false
    return ask(NetlinkParser.getLink, then: NetlinkParser.getRoute)
  }

  private mutating func ask(_ type: UInt16, then next: UInt16?) -> DumpRequest {
    lastSequence &+= 1
    pending = (lastSequence, next)
    return DumpRequest(type: type, sequence: lastSequence)
  }
}
