// The server's `Sec-WebSocket-Extensions` answer (RFC 6455 §9.1) and its permessage-deflate
// negotiation (RFC 7692 §7). Checks: no crash; names and parameter names are tokens; a list that
// parses reads the same when written back (with values that are tokens); an accepted
// negotiation has window bits of 8 to 15, at most what was offered.
import Foundation

@testable import Convoy

private let offer = PerMessageDeflateConfiguration()

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  if let elements = try? WebSocketExtensionHeaderParser.parse(text) {
    for element in elements {
      precondition(isToken(element.name), "an extension name that is not a token")
      for parameter in element.parameters {
        precondition(isToken(parameter.name), "a parameter name that is not a token")
      }
    }
    let written = elements.map(\.headerValue).joined(separator: ", ")
    if elements.allSatisfy({ $0.parameters.allSatisfy { $0.value.map(isToken) ?? true } }) {
      precondition(
        (try? WebSocketExtensionHeaderParser.parse(written)) == elements,
        "parse → write → parse changed the list")
    }
  }
  if let agreed = (try? offer.negotiate(answer: text)) ?? nil {
    precondition((8...15).contains(agreed.clientMaxWindowBits), "client window bits out of range")
    precondition((8...15).contains(agreed.serverMaxWindowBits), "server window bits out of range")
  }
  return 0
}

private func isToken(_ value: String) -> Bool {
  !value.isEmpty && value.utf8.allSatisfy(HTTPFieldSyntax.isTokenCharacter)
}
