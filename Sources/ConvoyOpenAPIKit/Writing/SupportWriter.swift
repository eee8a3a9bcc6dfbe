/// Writes the namespace and the few helpers generated code relies on, into the generated code
/// itself, so that it needs nothing but Convoy and Foundation.
enum SupportWriter {
  static func write(
    namespace ns: String, access: String, title: String?, into code: inout CodeBuilder
  ) {
    let a = access
    code.documentation(
      title.map { "The \($0) API, generated from its OpenAPI document." }
        ?? "An API generated from its OpenAPI document.")
    code.line("\(a)enum \(ns) {}")
    code.line()
    code.text(
      """
      extension \(ns) {
        /// A decoder for this API's answers: dates as the document's `date-time` format allows.
        \(a)static func makeDecoder() -> JSONDecoder {
          let decoder = JSONDecoder()
          decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = DateCoding.date(from: text) else {
              throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an RFC 3339 date-time: \\(text)")
            }
            return date
          }
          return decoder
        }

        /// An encoder for this API's request bodies: dates as RFC 3339 date-times.
        \(a)static func makeEncoder() -> JSONEncoder {
          let encoder = JSONEncoder()
          encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(DateCoding.string(from: date))
          }
          return encoder
        }

        /// Percent-encodes `text` for use as one path segment.
        \(a)static func pathSegment(_ text: String) -> String {
          var allowed = CharacterSet.alphanumerics
          allowed.insert(charactersIn: "-._~")
          return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        }

        /// RFC 3339 date-times: with or without fractional seconds, and without a time zone
        /// (read as UTC), as servers written in Python send them.
        \(a)enum DateCoding {
          /// The date as `2024-05-01T12:30:00.000Z`.
          \(a)static func string(from date: Date) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: date)
          }

          /// The date in `text`, or `nil` when it is not a date-time.
          \(a)static func date(from text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            let hasZone = text.hasSuffix("Z") || text.hasSuffix("z") || text.dropFirst(19).contains { $0 == "+" || $0 == "-" }
            let candidate = hasZone ? text : text + "Z"
            for options: ISO8601DateFormatter.Options in [
              [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime],
            ] {
              formatter.formatOptions = options
              if let date = formatter.date(from: candidate) { return date }
            }
            return nil
          }
        }

        /// A `date` (`2024-05-01`): a day in no particular time zone.
        \(a)struct CalendarDate: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
          /// The year.
          \(a)var year: Int
          /// The month, from 1.
          \(a)var month: Int
          /// The day of the month, from 1.
          \(a)var day: Int

          /// Creates a day.
          \(a)init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
          }

          /// Reads `YYYY-MM-DD`; `nil` for anything else.
          \(a)init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            self.init(year: year, month: month, day: day)
          }

          /// `YYYY-MM-DD`.
          \(a)var description: String {
            func padded(_ value: Int, _ width: Int) -> String {
              let digits = String(value)
              return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            return "\\(padded(year, 4))-\\(padded(month, 2))-\\(padded(day, 2))"
          }

          /// Earlier days first.
          \(a)static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
            (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
          }

          /// Decodes `YYYY-MM-DD`.
          \(a)init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = CalendarDate(text) else {
              throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a YYYY-MM-DD date: \\(text)")
            }
            self = date
          }

          /// Encodes `YYYY-MM-DD`.
          \(a)func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
          }
        }

        /// Any JSON value, for free-form objects and schemas the generator cannot type.
        \(a)enum JSONValue: Codable, Hashable, Sendable {
          /// `null`.
          case null
          /// `true` or `false`.
          case bool(Bool)
          /// A whole number.
          case integer(Int)
          /// Any other number.
          case number(Double)
          /// A string.
          case string(String)
          /// An array.
          case array([JSONValue])
          /// An object.
          case object([String: JSONValue])

          /// Decodes whatever JSON is there.
          \(a)init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: AnyKey.self) {
              var object: [String: JSONValue] = [:]
              for key in container.allKeys {
                object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
              }
              self = .object(object)
            } else if var container = try? decoder.unkeyedContainer() {
              var array: [JSONValue] = []
              while !container.isAtEnd { array.append(try container.decode(JSONValue.self)) }
              self = .array(array)
            } else {
              let container = try decoder.singleValueContainer()
              if container.decodeNil() {
                self = .null
              } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
              } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
              } else if let value = try? container.decode(Double.self) {
                self = .number(value)
              } else {
                self = .string(try container.decode(String.self))
              }
            }
          }

          /// Encodes the value as it is.
          \(a)func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
          }
        }

        /// A coding key made from any string.
        \(a)struct AnyKey: CodingKey, Hashable, Sendable {
          /// The key.
          \(a)var stringValue: String
          /// Always `nil`.
          \(a)var intValue: Int? { nil }

          /// A key for `name`.
          \(a)init(_ name: String) { stringValue = name }
          /// A key for `stringValue`.
          \(a)init?(stringValue: String) { self.stringValue = stringValue }
          /// Integer keys are not used.
          \(a)init?(intValue: Int) { nil }
        }

        /// Holds a value of a type that contains itself (`parent: Node`), which a struct cannot
        /// do directly; it encodes and decodes as the value.
        \(a)struct Indirect<Wrapped: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
          private final class Storage: Sendable {
            let value: Wrapped
            init(_ value: Wrapped) { self.value = value }
          }

          private let storage: Storage

          /// Wraps `value`.
          \(a)init(_ value: Wrapped) { storage = Storage(value) }

          /// The value.
          \(a)var value: Wrapped { storage.value }

          /// Compares the values.
          \(a)static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }

          /// Hashes the value.
          \(a)func hash(into hasher: inout Hasher) { hasher.combine(value) }

          /// Decodes the value.
          \(a)init(from decoder: any Decoder) throws {
            storage = Storage(try decoder.singleValueContainer().decode(Wrapped.self))
          }

          /// Encodes the value.
          \(a)func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
          }
        }
      }
      """)
  }
}

extension CodeBuilder {
  /// Appends a block of text as it is, followed by a line break.
  mutating func text(_ block: String) {
    for blockLine in block.split(separator: "\n", omittingEmptySubsequences: false) {
      line(String(blockLine))
    }
  }
}
