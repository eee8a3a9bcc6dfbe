import Foundation

/// What the person must do to approve a device login (RFC 8628 §3.2): visit
/// ``verificationURI`` and enter ``userCode``, or open ``verificationURIComplete``.
///
/// ``Login/deviceCode(timeout:showing:)`` hands it to the caller once, then polls until the
/// person decided.
public struct DeviceAuthorization: Sendable, Hashable {
  /// The code the person types, e.g. `WDJB-MJHT`.
  public let userCode: String
  /// Where the person enters it.
  public let verificationURI: URL
  /// The same page with the code filled in, when the server offers it (good for a QR code).
  public let verificationURIComplete: URL?
  /// When the codes expire; polling stops then with `expired_token`.
  public let expiresAt: Date
  /// The seconds between polls the server asked for (5 when it did not say).
  public let interval: TimeInterval
}

/// Asks the device authorization endpoint for a device code and a user code (RFC 8628 §3.1).
struct DeviceAuthorizationRequest: OAuthFormRequest {
  /// The answer: the codes.
  struct Response: ResponseDescribing {
    /// What to show the person.
    let authorization: DeviceAuthorization
    /// The code the app polls with; never shown.
    let deviceCode: String
    /// The status, URL and headers.
    let response: HTTPResponse

    private struct Payload: Decodable {
      var deviceCode: String
      var userCode: String
      var verificationUri: String?
      // Some servers (Google's, older drafts) say "verification_url".
      var verificationUrl: String?
      var verificationUriComplete: String?
      var expiresIn: Double
      var interval: Double?
    }

    /// Decodes the endpoint's JSON.
    init(data: Data, response: HTTPResponse) throws {
      self.response = response
      let decoder = JSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let payload = try decoder.decode(Payload.self, from: data)
      guard let uri = (payload.verificationUri ?? payload.verificationUrl).flatMap(URL.init)
      else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: [], debugDescription: "no verification_uri"))
      }
      deviceCode = payload.deviceCode
      // RFC 8628 §3.2 sets no bound; an hour keeps the polling loop bounded whatever it says.
      let lifetime = min(max(payload.expiresIn, 0), 3_600)
      authorization = DeviceAuthorization(
        userCode: payload.userCode, verificationURI: uri,
        verificationURIComplete: payload.verificationUriComplete.flatMap(URL.init),
        expiresAt: Date().addingTimeInterval(lifetime),
        interval: max(payload.interval ?? 5, 0))
    }
  }

  /// The client asking.
  var client: OAuthClient
  /// The device authorization endpoint: a path or an absolute URL.
  var endpoint: String

  /// Creates the request.
  init(client: OAuthClient, endpoint: String) {
    self.client = client
    self.endpoint = endpoint
  }

  /// The client's additional parameters and `scope`.
  var formParameters: [String: String] {
    var parameters = client.additionalParameters
    if !client.scopes.isEmpty { parameters["scope"] = client.scopes.joined(separator: " ") }
    return parameters
  }
}

extension DeviceAuthorizationRequest.Response: HTTPResponseProviding {}
