import Convoy
import Foundation

// What each endpoint answers when nothing goes wrong; `PlacesAPIBehaviour` adds the scenarios.
extension PlacesAPIBehaviour {
  func retrieveClient(_ request: StubRequest) -> StubAnswer {
    guard let credentials = request.jsonBody as? [String: Any],
      let email = credentials["email"] as? String, let password = credentials["password"] as? String
    else {
      return .json(
        ["error": true, "reason": "Send a JSON body with email and password."], status: 400)
    }
    guard Self.user(email: email, password: password) != nil else {
      return .json(["error": true, "reason": "Wrong email or password."], status: 401)
    }
    return .json([
      "client_id": SimulatedPlacesAPI.client.id, "client_secret": SimulatedPlacesAPI.client.secret,
    ])
  }

  func issueToken(_ request: StubRequest) -> StubAnswer {
    let form = request.formBody
    guard
      Self.presentedClient(form: form, authorization: request.header("Authorization"))
        == SimulatedPlacesAPI.client
    else {
      return .json(
        ["error": "invalid_client", "error_description": "Unknown client."], status: 401)
    }
    switch form["grant_type"] {
    case "password":
      guard let user = Self.user(email: form["username"] ?? "", password: form["password"] ?? "")
      else { return invalidGrant("Wrong email or password.") }
      return tokens(for: user.email)
    case "refresh_token":
      if scenario == .refreshRevoked { return invalidGrant("The refresh token was revoked.") }
      guard let token = SimulatedToken(verifying: form["refresh_token"] ?? ""),
        token.kind == .refresh, !token.isExpired(at: now())
      else { return invalidGrant("The refresh token is invalid or expired.") }
      return tokens(for: token.subject)
    default:
      return .json(["error": "unsupported_grant_type"], status: 400)
    }
  }

  func listPlaces(_ request: StubRequest) -> StubAnswer {
    guard let city = request.queryValue("city") else { return .encoded(SimulatedPlacesAPI.places) }
    return .encoded(
      SimulatedPlacesAPI.places.filter { $0.city.caseInsensitiveCompare(city) == .orderedSame })
  }

  func showPlace(_ request: StubRequest) -> StubAnswer {
    let id = request.pathParameters["id"] ?? ""
    guard let place = SimulatedPlacesAPI.places.first(where: { String($0.id) == id }) else {
      return .json(["error": true, "reason": "There is no place with id \(id)."], status: 404)
    }
    return .encoded(place)
  }

  /// `POST v2/uploads`: checks the body against its `Content-Length` when it has one, and
  /// answers `201` with what arrived, `{"bytes": 1234, "sha256": "<hex>"}`, so a client can check
  /// that every byte it sent came through.
  func receiveUpload(_ request: StubRequest) -> StubAnswer {
    if let announced = request.header("Content-Length").flatMap(Int.init),
      announced != request.body.count
    {
      return .json(
        ["error": true, "reason": "The upload ended before its announced length."], status: 400)
    }
    let digest = SHA256.hash(request.body).map { String(format: "%02x", $0) }.joined()
    return .json(["bytes": request.body.count, "sha256": digest] as [String: Any], status: 201)
  }

  /// `POST v2/places/{id}/notes`: `{"text": …}` → 201 `{"id", "place", "text"}`, honouring
  /// `Idempotency-Key` (``SimulatedNotes``).
  func postNote(_ request: StubRequest) -> StubAnswer {
    guard let id = request.pathParameters["id"].flatMap(Int.init),
      SimulatedPlacesAPI.places.contains(where: { $0.id == id })
    else {
      return .json(["error": true, "reason": "There is no such place."], status: 404)
    }
    guard
      let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
      let text = object["text"] as? String, !text.isEmpty
    else {
      return .json(["error": true, "reason": "A note needs a text."], status: 400)
    }
    return notes.post(place: id, text: text, idempotencyKey: request.header("Idempotency-Key"))
  }

  private func tokens(for subject: String) -> StubAnswer {
    let issued = now()
    let access = SimulatedToken(
      kind: .access, subject: subject, expiresAt: issued.addingTimeInterval(accessTokenLifetime))
    let refresh = SimulatedToken(
      kind: .refresh, subject: subject, expiresAt: issued.addingTimeInterval(refreshTokenLifetime))
    return .json([
      "access_token": access.encoded, "token_type": "bearer",
      "expires_in": Int(accessTokenLifetime), "refresh_token": refresh.encoded,
    ])
  }

  private func invalidGrant(_ description: String) -> StubAnswer {
    .json(["error": "invalid_grant", "error_description": description], status: 400)
  }

  private static func user(email: String, password: String) -> SimulatedUser? {
    SimulatedPlacesAPI.users.first {
      $0.email.caseInsensitiveCompare(email) == .orderedSame && $0.password == password
    }
  }

  // RFC 6749 §2.3.1: client credentials come as form fields or, form-encoded, as HTTP Basic.
  private static func presentedClient(form: [String: String], authorization: String?)
    -> ClientSecret?
  {
    if let id = form["client_id"], let secret = form["client_secret"] {
      return ClientSecret(id: id, secret: secret)
    }
    guard let authorization, authorization.lowercased().hasPrefix("basic "),
      let decoded = Data(base64Encoded: String(authorization.dropFirst("basic ".count))),
      let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
    else { return nil }
    let decode = { (part: Substring) in part.removingPercentEncoding ?? String(part) }
    return ClientSecret(
      id: decode(pair[..<colon]), secret: decode(pair[pair.index(after: colon)...]))
  }
}
