import Foundation

/// A device code the person approved, exchanged for a token (RFC 8628 §3.4): what
/// ``DeviceLogin`` polls the token endpoint with after the device authorization request.
public struct DeviceCodeGrant: OAuthGrant {
  /// The device code; never shown to the person.
  public var deviceCode: String

  /// Creates the grant.
  public init(deviceCode: String) {
    self.deviceCode = deviceCode
  }

  /// `urn:ietf:params:oauth:grant-type:device_code`.
  public var grantType: String { "urn:ietf:params:oauth:grant-type:device_code" }
  /// `device_code`.
  public var parameters: [String: String] { ["device_code": deviceCode] }
}

extension OAuthGrant where Self == DeviceCodeGrant {
  /// The device authorization grant (RFC 8628 §3.4) for `deviceCode`.
  public static func deviceCode(_ deviceCode: String) -> DeviceCodeGrant {
    DeviceCodeGrant(deviceCode: deviceCode)
  }
}
