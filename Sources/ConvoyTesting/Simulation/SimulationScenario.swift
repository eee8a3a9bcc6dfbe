/// How the simulated Places API behaves: everything working, or one thing going wrong the way
/// it does in production.
///
/// Names parse from the strings a command line gives: `SimulationScenario(rawValue: "token-expired")`.
public enum SimulationScenario: String, CaseIterable, Sendable {
  /// Everything works.
  case happy
  /// The first call that needs a token of this simulator is answered 401 "Invalid Token.";
  /// the refresh grant works, so the client renews once and carries on. The live feed's first
  /// reconnection is refused the same way, as a token that expired while the stream ran.
  case tokenExpired = "token-expired"
  /// The first call that needs a token is answered 401 and the refresh grant is refused with
  /// 400 `invalid_grant`, so the client's session ends.
  case refreshRevoked = "refresh-revoked"
  /// The places endpoints answer 500 with a JSON reason; logging in still works.
  case serverError = "server-error"
  /// Every answer arrives after ``SimulatedPlacesAPI/slowDelay`` (1.5 s by default);
  /// cancelling ends the wait at once.
  case slow
  /// Every call fails as if the device had no network (`TransportFailure/Kind/notConnectedToInternet`).
  case offline
  /// The places endpoints answer 200 with a body that is not valid JSON.
  case badJSON = "bad-json"

  /// One line for a command's help, e.g. `token-expired: the first call's token is refused…`.
  public var summary: String {
    switch self {
    case .happy: "everything works"
    case .tokenExpired: "the first authenticated call is refused with 401; the token refresh works"
    case .refreshRevoked:
      "the first authenticated call is refused with 401; the refresh is refused too"
    case .serverError: "the places endpoints answer 500"
    case .slow: "every answer takes 1.5 seconds"
    case .offline: "every call fails as if there were no network"
    case .badJSON: "the places endpoints answer 200 with malformed JSON"
    }
  }
}
