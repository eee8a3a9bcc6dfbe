import Convoy
import Foundation
import Testing

/// The transports the conformance suite runs against; each must behave the same.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case urlSession
  #if os(Linux)
    case curl
  #endif

  var testDescription: String { rawValue }

  /// A fresh transport of this kind.
  func make() throws -> any HTTPTransport {
    switch self {
    case .urlSession: URLSessionTransport()
    #if os(Linux)
      case .curl: try CurlTransport()
    #endif
    }
  }
}
