import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The W3C Trace Context (https://www.w3.org/TR/trace-context/) of the work a call belongs to:
/// the trace, the caller's span within it, the sampling flag and the vendors' `tracestate`.
///
/// A call made while a context is set as ``current`` carries it to the server: each attempt
/// sends `traceparent` with the same trace id and a new span id of its own, whose parent is the
/// caller's span, plus `tracestate` when there is one. Without a context nothing is added.
///
/// ```swift
/// let trace = try TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
/// let places = try await TraceContext.$current.withValue(trace) {
///   try await connection.execute(PlacesRequest())
/// }
/// ```
///
/// The task-local reaches calls made with `execute` in that task. A job's calls run in tasks of
/// their own; give its connection a ``TraceContextAdapter`` instead. A request that already has a
/// `traceparent` (set by an adapter, such as a tracing library's propagation) keeps it.
public struct TraceContext: Sendable, Hashable {
  /// The trace: 32 lowercase hexadecimal digits, not all zero.
  public let traceID: String
  /// The caller's span, which the calls' spans are children of: 16 lowercase hexadecimal
  /// digits, not all zero.
  public let parentID: String
  /// The trace flags; bit 0 (``isSampled``) says whether the caller records the trace.
  public let flags: UInt8
  /// The vendors' `tracestate` list, passed on as it is; `nil` for none.
  public let traceState: String?

  /// The context of the current task's work; Convoy sends it with every call made inside.
  @TaskLocal public static var current: TraceContext?

  /// Whether the caller records this trace (`sampled` flag).
  public var isSampled: Bool { flags & 1 == 1 }

  /// Creates a context from its parts.
  ///
  /// - Throws: ``TraceContextError`` when an id is not lowercase hexadecimal of the right length
  ///   or all zero, or `traceState` is not a valid list.
  public init(traceID: String, parentID: String, flags: UInt8 = 1, traceState: String? = nil)
    throws(TraceContextError)
  {
    guard Self.isID(traceID, digits: 32) else { throw .invalidTraceID }
    guard Self.isID(parentID, digits: 16) else { throw .invalidParentID }
    if let traceState, !Self.isValidTraceState(traceState) { throw .invalidTraceState }
    self.traceID = traceID
    self.parentID = parentID
    self.flags = flags
    self.traceState = traceState.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Reads the `traceparent` (and `tracestate`) header values a trace arrived with.
  ///
  /// Version `00` must be exactly `version-traceid-parentid-flags`; a later version may append
  /// fields after the flags, which are ignored, as the specification asks.
  ///
  /// - Throws: ``TraceContextError`` when `traceparent` is malformed or `tracestate` is not a
  ///   valid list.
  public init(traceparent: String, tracestate: String? = nil) throws(TraceContextError) {
    let text = traceparent.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    let bytes = Array(text.utf8)
    guard bytes.count >= 55, bytes[2] == 0x2D, bytes[35] == 0x2D, bytes[52] == 0x2D else {
      throw .malformedTraceparent
    }
    let version = String(decoding: bytes[0..<2], as: UTF8.self)
    guard Self.isHex(version), version != "ff" else { throw .unsupportedVersion }
    guard bytes.count == 55 || (version != "00" && bytes[55] == 0x2D) else {
      throw .malformedTraceparent
    }
    let flags = String(decoding: bytes[53..<55], as: UTF8.self)
    guard Self.isHex(flags), let flagBits = UInt8(flags, radix: 16) else {
      throw .malformedTraceparent
    }
    try self.init(
      traceID: String(decoding: bytes[3..<35], as: UTF8.self),
      parentID: String(decoding: bytes[36..<52], as: UTF8.self), flags: flagBits,
      traceState: tracestate.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) })
  }

  /// The context an incoming request's headers carry, or `nil` when they carry none or a
  /// malformed one; a malformed `tracestate` is dropped and the `traceparent` kept, as the
  /// specification asks of a receiver.
  public init?(headers: HTTPHeaders) {
    guard let parent = headers["traceparent"] else { return nil }
    let state = headers.values(for: "tracestate").joined(separator: ",")
    if let context = try? TraceContext(traceparent: parent, tracestate: state.isEmpty ? nil : state)
    {
      self = context
    } else if let context = try? TraceContext(traceparent: parent) {
      self = context
    } else {
      return nil
    }
  }

  /// A new trace, this process its root: random trace and parent ids.
  public static func newTrace(sampled: Bool = true) -> TraceContext {
    // Random ids are never all zero: each half is drawn from 1...max.
    try! TraceContext(
      traceID: randomSpanID() + randomSpanID(), parentID: randomSpanID(), flags: sampled ? 1 : 0)
  }

  /// The `traceparent` value of this context itself: version `00`.
  public var traceparent: String { traceparent(spanID: parentID) }

  /// The `traceparent` value for a child span `spanID` of this context's trace.
  public func traceparent(spanID: String) -> String {
    let flagDigits = String(flags, radix: 16)
    return "00-\(traceID)-\(spanID)-\(flags < 16 ? "0" : "")\(flagDigits)"
  }

  /// A child of this context: same trace, flags and state, `spanID` as the parent of what
  /// follows; a new random span id by default.
  public func child(spanID: String = TraceContext.randomSpanID()) -> TraceContext {
    (try? TraceContext(
      traceID: traceID, parentID: spanID, flags: flags, traceState: traceState)) ?? self
  }

  /// 16 random lowercase hexadecimal digits, never all zero.
  public static func randomSpanID() -> String {
    let value = UInt64.random(in: 1...UInt64.max)
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Adds `traceparent` for a new span under this context, and `tracestate`, unless `request`
  /// already has a `traceparent`.
  func apply(to request: inout URLRequest) {
    guard request.value(forHTTPHeaderField: "traceparent") == nil else { return }
    request.setValue(traceparent(spanID: Self.randomSpanID()), forHTTPHeaderField: "traceparent")
    if let traceState { request.setValue(traceState, forHTTPHeaderField: "tracestate") }
  }

  private static func isHex(_ text: String) -> Bool {
    text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  private static func isID(_ text: String, digits: Int) -> Bool {
    text.utf8.count == digits && isHex(text) && text.utf8.contains { $0 != 0x30 }
  }

  /// At most 32 members `key=value`, separated by commas with optional blanks around them;
  /// empty members are allowed. Keys: lowercase letters, digits, `_ - * /`, optionally
  /// `tenant@system`; values: printable ASCII but `,` and `=`, not ending in a space.
  static func isValidTraceState(_ text: String) -> Bool {
    guard text.utf8.count <= 8_192 else { return false }
    var members = 0
    for member in text.split(separator: ",", omittingEmptySubsequences: false) {
      let trimmed = member.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
      if trimmed.isEmpty { continue }
      members += 1
      guard members <= 32, let equals = trimmed.firstIndex(of: "=") else { return false }
      let key = trimmed[..<equals]
      let value = trimmed[trimmed.index(after: equals)...]
      guard isValidKey(key), isValidValue(value) else { return false }
    }
    return true
  }

  private static func isValidKey(_ key: Substring) -> Bool {
    let parts = key.split(separator: "@", omittingEmptySubsequences: false)
    let isKeyByte: (UInt8) -> Bool = {
      (0x61...0x7A).contains($0) || (0x30...0x39).contains($0)
        || [0x5F, 0x2D, 0x2A, 0x2F].contains($0)
    }
    func isFirst(_ byte: UInt8?, digitsAllowed: Bool) -> Bool {
      guard let byte else { return false }
      return (0x61...0x7A).contains(byte) || (digitsAllowed && (0x30...0x39).contains(byte))
    }
    switch parts.count {
    case 1:
      return key.utf8.count <= 256 && isFirst(key.utf8.first, digitsAllowed: true)
        && key.utf8.allSatisfy(isKeyByte)
    case 2:
      let tenant = parts[0]
      let system = parts[1]
      return tenant.utf8.count <= 241 && system.utf8.count <= 14
        && isFirst(tenant.utf8.first, digitsAllowed: true) && tenant.utf8.allSatisfy(isKeyByte)
        && isFirst(system.utf8.first, digitsAllowed: false) && system.utf8.allSatisfy(isKeyByte)
    default:
      return false
    }
  }

  private static func isValidValue(_ value: Substring) -> Bool {
    guard (1...256).contains(value.utf8.count), value.utf8.last != 0x20 else { return false }
    return value.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x2C && $0 != 0x3D }
  }
}

/// Why a `traceparent`, an id or a `tracestate` is not valid W3C Trace Context.
public enum TraceContextError: Error, Sendable, Hashable, CustomStringConvertible, CategorizedError
{
  /// The value is not `version-traceid-parentid-flags` with the right lengths.
  case malformedTraceparent
  /// The version is not two lowercase hexadecimal digits, or is the forbidden `ff`.
  case unsupportedVersion
  /// The trace id is not 32 lowercase hexadecimal digits, or is all zero.
  case invalidTraceID
  /// The parent id is not 16 lowercase hexadecimal digits, or is all zero.
  case invalidParentID
  /// The `tracestate` is not a list of at most 32 valid `key=value` members.
  case invalidTraceState

  /// What is wrong, without the value itself.
  public var description: String {
    switch self {
    case .malformedTraceparent:
      "The traceparent is not version-traceid-parentid-flags in lowercase hexadecimal."
    case .unsupportedVersion: "The traceparent's version is not a valid version."
    case .invalidTraceID: "The trace id is not 32 lowercase hexadecimal digits, not all zero."
    case .invalidParentID: "The parent id is not 16 lowercase hexadecimal digits, not all zero."
    case .invalidTraceState: "The tracestate is not a list of at most 32 key=value members."
    }
  }

  /// A trace context the app passes is part of the request it describes.
  public var category: ErrorCategory { .invalidRequest }
}
