import Foundation

/// A JSON Lines (NDJSON) body decoded into one value per line, as the loop asks for them.
///
/// Lines are read as ``ResponseLines`` reads them; blank lines (nothing but spaces, tabs or a
/// CR) are skipped. A line that does not decode throws ``JSONLinesDecodingError`` naming the
/// line, counted from 1 over every line of the stream. Breaking out of the loop or cancelling
/// the task stops reading the base.
///
/// ```swift
/// struct Update: Decodable {
///   var id: Int
///   var name: String
/// }
///
/// func names<Body: AsyncSequence>(in body: Body) async throws -> [String]
/// where Body.Element == Data {
///   var names: [String] = []
///   for try await update in body.jsonLines(of: Update.self) {
///     names.append(update.name)
///   }
///   return names
/// }
/// ```
public struct JSONLines<Base: AsyncSequence, Value: Decodable>: AsyncSequence
where Base.Element == Data {
  /// One decoded line.
  public typealias Element = Value

  let lines: ResponseLines<Base>
  // Held like ServerConnection holds its decoder: JSONDecoder is Sendable on current toolchains.
  let decoder: JSONDecoder

  /// Creates the values of `base`, one per line.
  ///
  /// - Parameters:
  ///   - base: The body's chunks.
  ///   - decoder: The decoder for each line.
  ///   - maximumLineLength: The longest line accepted, in bytes; longer lines throw
  ///     ``StreamFormatError/lineTooLong(line:limit:)``.
  public init(_ base: Base, decoder: JSONDecoder = JSONDecoder(), maximumLineLength: Int = 1 << 20)
  {
    self.lines = ResponseLines(base, maximumLineLength: maximumLineLength)
    self.decoder = decoder
  }

  /// Starts reading the base.
  public func makeAsyncIterator() -> Iterator {
    Iterator(lines: lines.makeAsyncIterator(), decoder: decoder)
  }

  /// Reads lines until one that is not blank, and decodes it.
  public struct Iterator: AsyncIteratorProtocol {
    var lines: ResponseLines<Base>.Iterator
    let decoder: JSONDecoder
    var lineNumber = 0

    /// The next value, or `nil` once the base has ended.
    public mutating func next() async throws -> Value? {
      while let line = try await lines.next() {
        lineNumber += 1
        if line.utf8.allSatisfy(isBlank) { continue }
        do {
          return try decoder.decode(Value.self, from: Data(line.utf8))
        } catch {
          let failure = DecodingFailure(error, responseType: Value.self)
          throw JSONLinesDecodingError(line: lineNumber, failure: failure)
        }
      }
      return nil
    }
  }
}

extension JSONLines: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
  /// These chunks as JSON Lines, decoded into one `Value` per line; blank lines are skipped.
  ///
  /// ```swift
  /// struct Tick: Decodable { var price: Double }
  ///
  /// func lastPrice<Body: AsyncSequence>(_ body: Body) async throws -> Double?
  /// where Body.Element == Data {
  ///   var last: Double?
  ///   for try await tick in body.jsonLines(of: Tick.self) { last = tick.price }
  ///   return last
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type of each line's value.
  ///   - decoder: The decoder for each line.
  /// - Returns: The decoded values, read as the loop asks for them.
  public func jsonLines<Value: Decodable>(
    of type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()
  ) -> JSONLines<Self, Value> {
    JSONLines(self, decoder: decoder)
  }
}

/// Space, tab and CR: what a line may hold and still count as blank (LF already ended it).
private func isBlank(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0D
}
