import Convoy
import Testing

@Suite struct StreamFormatErrorTests {
  @Test func descriptionsSayWhatHappenedAndWhere() {
    #expect(
      StreamFormatError.lineTooLong(line: 3, limit: 1024).description
        == "Line 3 of the stream is longer than the limit of 1024 bytes.")
    #expect(
      StreamFormatError.invalidUTF8(line: 7).description
        == "Line 7 of the stream is not valid UTF-8 text.")
    #expect(
      StreamFormatError.eventTooLarge(limit: 64).description
        == "A server-sent event in the stream is larger than the limit of 64 bytes.")
  }
}
