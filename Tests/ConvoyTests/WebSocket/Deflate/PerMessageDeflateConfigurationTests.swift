import Testing

@testable import Convoy

/// What the client offers and which answers it accepts (RFC 7692 §5, §7.1; RFC 6455 §9.1).
@Suite struct PerMessageDeflateConfigurationTests {
  typealias Configuration = PerMessageDeflateConfiguration
  typealias Parameters = PerMessageDeflateParameters
  typealias Failure = PerMessageDeflateNegotiationError

  // MARK: The offer

  @Test func offersDeflateAndLetsTheServerLimitTheClientsWindowByDefault() {
    #expect(Configuration().offer == "permessage-deflate; client_max_window_bits")
    #expect(Configuration().minimumMessageSize == 64)
  }

  @Test func offersEveryParameterItIsGiven() {
    let configuration = Configuration(
      clientWindow: .limit(10), serverMaxWindowBits: 12, clientNoContextTakeover: true,
      serverNoContextTakeover: true)
    #expect(
      configuration.offer
        == "permessage-deflate; client_no_context_takeover; server_no_context_takeover; "
        + "client_max_window_bits=10; server_max_window_bits=12")
    #expect(Configuration(clientWindow: .notOffered).offer == "permessage-deflate")
  }

  @Test func itsOfferReadsBackAsOneExtension() throws {
    let configuration = Configuration(serverMaxWindowBits: 9, serverNoContextTakeover: true)
    let elements = try WebSocketExtensionHeaderParser.parse(configuration.offer)
    #expect(elements.map(\.name) == ["permessage-deflate"])
    #expect(elements.first?.parameters.count == 3)
  }

  // MARK: Accepted answers

  @Test(arguments: [nil, "", " , "])
  func noExtensionInTheAnswerMeansNoCompression(answer: String?) throws {
    #expect(try Configuration().negotiate(answer: answer) == nil)
  }

  @Test func aBareAcceptanceKeepsContextBothWaysWithFullWindows() throws {
    #expect(try Configuration().negotiate(answer: "permessage-deflate") == Parameters())
  }

  @Test(arguments: [
    ("permessage-deflate; client_max_window_bits=10", Parameters(clientMaxWindowBits: 10)),
    ("permessage-deflate; client_max_window_bits=8", Parameters(clientMaxWindowBits: 8)),
    ("permessage-deflate; server_max_window_bits=12", Parameters(serverMaxWindowBits: 12)),
    ("permessage-deflate; server_max_window_bits=15", Parameters()),
    ("permessage-deflate; server_no_context_takeover", Parameters(serverNoContextTakeover: true)),
    ("permessage-deflate; client_no_context_takeover", Parameters(clientNoContextTakeover: true)),
    (
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=9; client_max_window_bits=11",
      Parameters(
        clientNoContextTakeover: true, serverNoContextTakeover: true, clientMaxWindowBits: 11,
        serverMaxWindowBits: 9)
    ),
    (#"permessage-deflate; client_max_window_bits="9""#, Parameters(clientMaxWindowBits: 9)),
    (
      " ,permessage-deflate ;server_max_window_bits = 10 ;\tclient_no_context_takeover , ",
      Parameters(clientNoContextTakeover: true, serverMaxWindowBits: 10)
    ),
  ])
  func acceptsWhatTheDefaultOfferAllows(answer: String, agreed: Parameters) throws {
    #expect(try Configuration().negotiate(answer: answer) == agreed)
  }

  @Test func theServerMayAnswerTheWindowItWasOfferedOrLess() throws {
    let configuration = Configuration(serverMaxWindowBits: 10)
    let answer = "permessage-deflate; server_max_window_bits="
    #expect(try configuration.negotiate(answer: answer + "10")?.serverMaxWindowBits == 10)
    #expect(try configuration.negotiate(answer: answer + "8")?.serverMaxWindowBits == 8)
  }

  @Test func aServerAcceptsServerNoContextTakeoverByAnsweringIt() throws {
    let configuration = Configuration(serverNoContextTakeover: true)
    let agreed = try configuration.negotiate(
      answer: "permessage-deflate; server_no_context_takeover")
    #expect(agreed == Parameters(serverNoContextTakeover: true))
  }

  @Test func theClientKeepsItsOwnPromiseOfNoContextTakeoverWhenTheAnswerIsSilent() throws {
    let configuration = Configuration(clientNoContextTakeover: true)
    let agreed = try configuration.negotiate(answer: "permessage-deflate")
    #expect(agreed == Parameters(clientNoContextTakeover: true))
  }

  @Test func theClientKeepsToTheSmallerOfTheWindowItOfferedAndTheOneAnswered() throws {
    let configuration = Configuration(clientWindow: .limit(10))
    let answer = "permessage-deflate; client_max_window_bits="
    #expect(try configuration.negotiate(answer: "permessage-deflate")?.clientMaxWindowBits == 10)
    #expect(try configuration.negotiate(answer: answer + "12")?.clientMaxWindowBits == 10)
    #expect(try configuration.negotiate(answer: answer + "9")?.clientMaxWindowBits == 9)
  }

  // MARK: Refused answers

  @Test(arguments: [
    ("x-webkit-deflate-frame", Failure.unknownExtension("x-webkit-deflate-frame")),
    ("permessage-deflate, x-foo", .unknownExtension("x-foo")),
    ("x-foo, permessage-deflate", .unknownExtension("x-foo")),
    ("Permessage-Deflate", .unknownExtension("Permessage-Deflate")),
    ("permessage-deflate, permessage-deflate", .repeatedExtension),
    (
      "permessage-deflate; client_max_window_bits=10, permessage-deflate",
      .repeatedExtension
    ),
  ])
  func refusesExtensionsThatWereNotOfferedOrOnlyOnce(answer: String, failure: Failure) {
    #expect(throws: failure) { try Configuration().negotiate(answer: answer) }
  }

  @Test(arguments: [
    ("permessage-deflate; foo", Failure.unknownParameter("foo")),
    ("permessage-deflate; x=1; server_no_context_takeover", .unknownParameter("x")),
    (
      "permessage-deflate; Server_No_Context_Takeover",
      .unknownParameter("Server_No_Context_Takeover")
    ),
    (
      "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
      .duplicateParameter("server_no_context_takeover")
    ),
    (
      "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
      .duplicateParameter("client_no_context_takeover")
    ),
    (
      "permessage-deflate; server_max_window_bits=10; server_max_window_bits=10",
      .duplicateParameter("server_max_window_bits")
    ),
    (
      "permessage-deflate; client_max_window_bits=10; client_max_window_bits=11",
      .duplicateParameter("client_max_window_bits")
    ),
  ])
  func refusesUnknownAndRepeatedParameters(answer: String, failure: Failure) {
    #expect(throws: failure) { try Configuration().negotiate(answer: answer) }
  }

  @Test(arguments: [
    (
      "permessage-deflate; server_no_context_takeover=1",
      Failure.unexpectedValue(parameter: "server_no_context_takeover", value: "1")
    ),
    (
      #"permessage-deflate; client_no_context_takeover="true""#,
      .unexpectedValue(parameter: "client_no_context_takeover", value: "true")
    ),
    (
      "permessage-deflate; server_max_window_bits",
      .missingValue(parameter: "server_max_window_bits")
    ),
    (
      "permessage-deflate; client_max_window_bits",
      .missingValue(parameter: "client_max_window_bits")
    ),
  ])
  func refusesAValueWhereNoneIsAllowedAndNoneWhereOneIsNeeded(answer: String, failure: Failure) {
    #expect(throws: failure) { try Configuration().negotiate(answer: answer) }
  }

  @Test(arguments: ["7", "16", "0", "08", "015", "+9", "-8", "9a", "99999999999999999999999"])
  func refusesWindowSizesOutsideEightToFifteen(value: String) {
    for parameter in ["server_max_window_bits", "client_max_window_bits"] {
      #expect(throws: Failure.invalidWindowBits(parameter: parameter, value: value)) {
        try Configuration().negotiate(answer: "permessage-deflate; \(parameter)=\(value)")
      }
      #expect(throws: Failure.invalidWindowBits(parameter: parameter, value: value)) {
        try Configuration().negotiate(answer: "permessage-deflate; \(parameter)=\"\(value)\"")
      }
    }
  }

  @Test func refusesALimitOnTheClientsWindowWhenTheClientDidNotOfferOne() throws {
    let configuration = Configuration(clientWindow: .notOffered)
    #expect(throws: Failure.notOffered(parameter: "client_max_window_bits")) {
      try configuration.negotiate(answer: "permessage-deflate; client_max_window_bits=10")
    }
    #expect(try configuration.negotiate(answer: "permessage-deflate") == Parameters())
  }

  @Test func refusesAServerWindowLargerThanOfferedOrNotAnswered() {
    let configuration = Configuration(serverMaxWindowBits: 10)
    #expect(
      throws: Failure.windowBitsAboveOffer(
        parameter: "server_max_window_bits", offered: 10, answered: 11)
    ) {
      try configuration.negotiate(answer: "permessage-deflate; server_max_window_bits=11")
    }
    #expect(throws: Failure.notAccepted(parameter: "server_max_window_bits")) {
      try configuration.negotiate(answer: "permessage-deflate")
    }
  }

  @Test func refusesAnAnswerWithoutTheServerNoContextTakeoverItWasOffered() {
    let configuration = Configuration(serverNoContextTakeover: true)
    #expect(throws: Failure.notAccepted(parameter: "server_no_context_takeover")) {
      try configuration.negotiate(answer: "permessage-deflate; client_max_window_bits=15")
    }
  }

  @Test(arguments: [
    ("permessage-deflate;", 19), ("permessage-deflate; client_max_window_bits=\"10", 43),
    ("permessage-deflate client_max_window_bits", 19),
  ])
  func refusesAnAnswerThatIsNotAnExtensionList(answer: String, position: Int) {
    #expect(throws: Failure.malformedHeader(position: position)) {
      try Configuration().negotiate(answer: answer)
    }
  }
}
