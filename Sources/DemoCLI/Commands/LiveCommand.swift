import Convoy
import Foundation

/// `democli live`: follows the live channel, a WebSocket, printing each message as it comes,
/// sends a message when asked, and closes the channel cleanly on Ctrl-C.
///
/// Two ways to stop, two close codes (RFC 6455 §7.4.1): Ctrl-C is the user walking away while
/// the channel still had a purpose, so it closes with 1001 (going away) and exits 130 as every
/// interrupted command does; `--count` ends the channel because its purpose is fulfilled, so it
/// closes with 1000 (normal closure) and exits 0.
enum LiveCommand: Command {
  static let spec = CommandSpec(
    name: "live", summary: "follow the live channel (a WebSocket) until Ctrl-C (needs a login)",
    options: [
      .value(
        "send", "TEXT", #"send TEXT once the channel is open, e.g. '{"subscribe": "Vienna"}'"#),
      .value("count", "N", "close the channel normally (1000) after N place updates"),
    ],
    discussion: """
      Opens the WebSocket v2/updates/live with the session's token and prints each message the
      server sends: its welcome, a line per place update, and its answer to --send (with --json
      each message as one JSON object per line). Ctrl-C closes the channel with 1001 (going
      away: the user left, nothing failed), says so on standard error and exits 130; --count
      closes it with 1000 (normal closure: done) and exits 0. When the server closes the
      channel, democli names its code and reason.

      The simulator's channel sends an update every second, acknowledges any text sent, after
      {"subscribe": "<city>"} sends only that city's updates, and after {"close": "<reason>"}
      closes the channel itself.

      Examples:
        democli live --env staging --simulate
        democli live --simulate --send '{"subscribe": "Vienna"}' --count 2 --json
      """)

  /// The simulator's live channel (and the demo API's).
  static let endpoint = WebSocketEndpoint(path: "v2/updates/live", requiresAuthentication: true)

  static func run(_ context: CommandContext) async throws {
    let count = try updateCount(context.arguments.value("count"))
    let text = context.arguments.value("send")
    let connection = try context.connection()
    let channel = LiveChannel()
    let follow = Task {
      let socket = try await connection.webSocket(endpoint)
      guard channel.opened(socket) else { return }
      if let text { try await socket.send(.text(text)) }
      var updates = 0
      for try await message in socket.messages {
        let isUpdate = try show(message, output: context.output)
        if isUpdate { updates += 1 }
        if let count, updates >= count {
          await socket.close(code: .normalClosure, reason: "done")
          context.output.note(
            "Closed the live channel after \(updates) update\(updates == 1 ? "" : "s")"
              + " (1000 normal closure).")
          return
        }
      }
      guard !channel.isStopping else { return }
      let code = socket.closeCode.map { "\($0.rawValue) \(name(of: $0))" } ?? "without a code"
      let reason = socket.closeReason.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? ""
      context.output.note("The server closed the live channel (\(code))\(reason).")
    }
    do {
      try await context.interruption.cancelling(
        with: { channel.stop(cancelling: follow) }, during: { try await follow.value })
    } catch {
      // Ctrl-C may come while a message is being sent: then the close below is what counts.
      guard channel.closing != nil else { throw error }
    }
    // The interrupt closed the channel: wait for the server's answer, then exit 130.
    if let closing = channel.closing {
      await closing.value
      context.output.note("Interrupted: closed the live channel (1001 going away).")
      throw CancellationError()
    }
  }

  private static func updateCount(_ text: String?) throws(UsageError) -> Int? {
    guard let text else { return nil }
    guard let count = Int(text), count > 0 else {
      throw .invalidValue(option: "--count", value: text, expected: "a whole number above 0")
    }
    return count
  }

  /// Prints `message`; returns whether it was a place update.
  private static func show(_ message: WebSocketMessage, output: Output) throws -> Bool {
    guard case .text(let text) = message else {
      output.line(
        human: "(\(message.bytes.count) bytes of binary)",
        json: ["type": "binary", "bytes": message.bytes.count])
      return false
    }
    // Every text message is a JSON object with a type; one that is not is a broken server.
    let kind = try JSONDecoder().decode(LiveMessage.self, from: Data(text.utf8))
    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) ?? [:]
    switch kind.type {
    case "place-update":
      let update = try JSONDecoder().decode(PlaceUpdate.self, from: Data(text.utf8))
      output.line(human: WatchCommand.line(update), json: object)
      return true
    case "welcome":
      let user = kind.user.map { $0.isEmpty ? "" : " as \($0)" } ?? ""
      output.line(human: "Connected\(user). \(kind.message ?? "")", json: object)
    case "ack":
      output.line(human: "The server received: \(kind.text ?? "")", json: object)
    case "subscribed":
      output.line(human: "Following \(kind.city ?? "one city") only.", json: object)
    case "error":
      output.line(human: "The server refused: \(kind.reason ?? text)", json: object)
    default:
      output.line(human: text, json: object)
    }
    return false
  }

  private static func name(of code: WebSocketCloseCode) -> String {
    switch code {
    case .normalClosure: "normal closure"
    case .goingAway: "going away"
    case .noStatusReceived: "no status"
    default: "close code"
    }
  }
}

/// The fields of the live channel's messages that democli reads besides a place update's.
private struct LiveMessage: Decodable {
  var type: String
  var user: String?
  var message: String?
  var text: String?
  var city: String?
  var reason: String?
}

/// Where the channel is, so that Ctrl-C closes an open channel with its handshake and cancels one
/// still opening.
private final class LiveChannel: Sendable {
  private struct State {
    var socket: WebSocket?
    var isStopping = false
    var closing: Task<Void, Never>?
  }

  private let state = Locked(State())

  /// Keeps the socket just opened; `false` (and closes it) when Ctrl-C came first.
  func opened(_ socket: WebSocket) -> Bool {
    let stopping = state.withLock { state in
      state.socket = socket
      return state.isStopping
    }
    if stopping { start(closing: socket) }
    return !stopping
  }

  var isStopping: Bool { state.withLock { $0.isStopping } }

  /// The close Ctrl-C started, if it came while the channel was open.
  var closing: Task<Void, Never>? { state.withLock { $0.closing } }

  /// Ctrl-C: closes the channel with 1001 when open; cancels `follow` while it opens.
  func stop(cancelling follow: Task<Void, any Error>) {
    let socket = state.withLock { state in
      state.isStopping = true
      return state.socket
    }
    guard let socket else { return follow.cancel() }
    start(closing: socket)
  }

  private func start(closing socket: WebSocket) {
    state.withLock { state in
      guard state.closing == nil else { return }
      state.closing = Task { await socket.close(code: .goingAway, reason: "democli interrupted") }
    }
  }
}
