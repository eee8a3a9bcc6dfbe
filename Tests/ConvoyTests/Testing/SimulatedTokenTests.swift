import ConvoyTesting
import Foundation
import Testing

@Suite struct SimulatedTokenTests {
  private let token = SimulatedToken(
    kind: .access, subject: "first.last@convoy.example",
    expiresAt: Date(timeIntervalSince1970: 1_900_000_000.7), id: "k3y")

  @Test func theWireFormReadsBackToTheSameToken() throws {
    let text = token.encoded
    #expect(text.hasPrefix("sim1.access."))
    #expect(text.split(separator: ".").count == 6)
    let read = try #require(SimulatedToken(verifying: text))
    #expect(read == token)
    #expect(read.subject == "first.last@convoy.example")
    #expect(read.id == "k3y")
    #expect(read.expiresAt == Date(timeIntervalSince1970: 1_900_000_000))
  }

  @Test func anyAlterationFailsVerification() {
    let parts = token.encoded.split(separator: ".").map(String.init)
    var alterations = [
      "", "sim1", token.encoded + "0", String(token.encoded.dropLast()) + "x",
      token.encoded.replacingOccurrences(of: "sim1.access.", with: "sim1.refresh."),
    ]
    var later = parts
    later[3] = String(Int(later[3])! + 3_600)
    alterations.append(later.joined(separator: "."))
    var other = parts
    other[2] = "YWRhQGNvbnZveS5leGFtcGxl"
    alterations.append(other.joined(separator: "."))
    for text in alterations {
      #expect(SimulatedToken(verifying: text) == nil, "\(text) should not verify")
    }
  }

  @Test func everyIssuedTokenIsDifferent() {
    let twins = (0..<2).map { _ in
      SimulatedToken(kind: .access, subject: "a@b.c", expiresAt: Date(timeIntervalSince1970: 0))
    }
    #expect(twins[0].encoded != twins[1].encoded)
  }

  @Test func expiryIsJudgedAgainstTheGivenClock() {
    #expect(!token.isExpired(at: Date(timeIntervalSince1970: 1_899_999_999)))
    #expect(token.isExpired(at: Date(timeIntervalSince1970: 1_900_000_000)))
  }
}
