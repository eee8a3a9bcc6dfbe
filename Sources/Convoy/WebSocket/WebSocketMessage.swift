import Foundation

/// One WebSocket message, whole however many frames it came in.
public enum WebSocketMessage: Sendable, Hashable {
  /// A text message, valid UTF-8.
  case text(String)
  /// A binary message.
  case binary(Data)

  /// A text message of `value` encoded as JSON with `encoder`.
  public static func json(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws
    -> WebSocketMessage
  {
    .text(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// The message's JSON decoded as `type` with `decoder`; a text message's UTF-8 or a binary
  /// message's bytes.
  public func decode<Value: Decodable>(
    _ type: Value.Type, decoder: JSONDecoder = JSONDecoder()
  ) throws -> Value {
    try decoder.decode(type, from: bytes)
  }

  /// The message's bytes: a text message's UTF-8.
  public var bytes: Data {
    switch self {
    case .text(let text): Data(text.utf8)
    case .binary(let data): data
    }
  }
}
