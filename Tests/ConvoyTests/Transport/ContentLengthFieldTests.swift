import Testing

@testable import Convoy

/// `Content-Length` frames a body only as one number, possibly repeated (RFC 9110 §8.6).
@Suite struct ContentLengthFieldTests {
  @Test func oneLengthOrTheSameLengthRepeatedFramesTheBody() {
    #expect(ContentLengthField.problem(in: ["42"]) == nil)
    #expect(ContentLengthField.problem(in: ["42, 42"]) == nil)
    #expect(ContentLengthField.problem(in: ["42", "042"]) == nil)
    #expect(ContentLengthField.problem(in: ["0"]) == nil)
    #expect(ContentLengthField.problem(in: ["\t7\t, 7 ", "0007"]) == nil)
    #expect(ContentLengthField.problem(in: ["0, 000"]) == nil)
  }

  @Test func differingLengthsAreRefusedWhetherInOneLineOrTwo() {
    #expect(ContentLengthField.problem(in: ["10, 4"])?.contains("differing") == true)
    #expect(ContentLengthField.problem(in: ["10", "4"])?.contains("differing") == true)
  }

  @Test func anythingButDigitsIsNotALength() {
    for value in ["", "-1", "1e3", "ten", "10,", " , 4", "١٢", "1 2", "\t"] {
      #expect(ContentLengthField.problem(in: [value]) != nil, "\(value)")
    }
  }
}
