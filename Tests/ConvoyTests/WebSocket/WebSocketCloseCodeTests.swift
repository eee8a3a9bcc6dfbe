import Testing

@testable import Convoy

/// RFC 6455 §7.4 and the IANA registry: the named codes and which codes may travel in a close
/// frame.
@Suite struct WebSocketCloseCodeTests {
  @Test func theNamedCodesHaveTheirRFCValues() {
    let codes: [(WebSocketCloseCode, UInt16)] = [
      (.normalClosure, 1000), (.goingAway, 1001), (.protocolError, 1002), (.unsupportedData, 1003),
      (.noStatusReceived, 1005), (.abnormalClosure, 1006), (.invalidPayload, 1007),
      (.policyViolation, 1008), (.messageTooBig, 1009), (.mandatoryExtension, 1010),
      (.internalError, 1011), (.serviceRestart, 1012), (.tryAgainLater, 1013),
      (.badGateway, 1014),
    ]
    for (code, value) in codes { #expect(code.rawValue == value) }
  }

  @Test func onlyTheSendableCodesAreAllowedOnTheWire() {
    let allowed = Set<UInt16>([
      1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
    ]).union(
      3000...4999)
    for value in UInt16.min...UInt16.max {
      #expect(
        WebSocketCloseCode(rawValue: value).isAllowedOnTheWire == allowed.contains(value),
        "\(value)")
    }
    #expect(!WebSocketCloseCode.noStatusReceived.isAllowedOnTheWire)
    #expect(!WebSocketCloseCode.abnormalClosure.isAllowedOnTheWire)
  }
}
