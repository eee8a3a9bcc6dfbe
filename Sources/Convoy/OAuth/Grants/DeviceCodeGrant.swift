import Foundation

/// A device code the person approved, exchanged for a token (RFC 8628 §3.4): what
/// ``Login/deviceCode(timeout:showing:)`` polls the token endpoint with after the device
/// authorization request.
package struct DeviceCodeGrant: OAuthGrant {
  /// The device code; never shown to the person.
  package var deviceCode: String

  /// Creates the grant.
  package init(deviceCode: String) {
    self.deviceCode = deviceCode
  }

  /// `urn:ietf:params:oauth:grant-type:device_code`.
  package var grantType: String { "urn:ietf:params:oauth:grant-type:device_code" }
  /// `device_code`.
  package var parameters: [String: String] { ["device_code": deviceCode] }
}

extension OAuthGrant where Self == DeviceCodeGrant {
  /// The device authorization grant (RFC 8628 §3.4) for `deviceCode`.
  package static func deviceCode(_ deviceCode: String) -> DeviceCodeGrant {
    DeviceCodeGrant(deviceCode: deviceCode)
  }
}
