#if canImport(Security)
  import Foundation
  import Security

  /// Saves the session in the Keychain as a generic password (Apple platforms).
  public struct KeychainSessionStore: SessionStore {
    /// The Keychain service, e.g. your bundle identifier.
    public let service: String
    /// The account the item is saved under, e.g. the environment's name.
    public let account: String

    /// A store for one service and account.
    public init(service: String, account: String) {
      self.service = service
      self.account = account
    }

    /// A store for `environment` under `service`.
    public init(service: String, environment: ServerEnvironment) {
      self.init(service: service, account: "session-\(environment.rawValue)")
    }

    private var query: [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
      ]
    }

    private var location: String { "keychain \(service)/\(account)" }

    /// Reads the item.
    public func loadSession() throws(SessionStoreError) -> Session? {
      var search = query
      search[kSecReturnData as String] = true
      search[kSecMatchLimit as String] = kSecMatchLimitOne
      var item: CFTypeRef?
      let status = SecItemCopyMatching(search as CFDictionary, &item)
      if status == errSecItemNotFound { return nil }
      guard status == errSecSuccess, let data = item as? Data else {
        throw .unreadable(location: location, reason: "OSStatus \(status)")
      }
      do {
        return try JSONDecoder().decode(Session.self, from: data)
      } catch {
        throw .corrupt(location: location, reason: "not a saved session")
      }
    }

    /// Adds or updates the item; it is readable only after the first unlock on this device.
    public func saveSession(_ session: Session) throws(SessionStoreError) {
      let data: Data
      do {
        data = try JSONEncoder().encode(session)
      } catch {
        throw .unwritable(location: location, reason: "encoding failed")
      }
      let attributes: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
      var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
      if status == errSecItemNotFound {
        status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
      }
      guard status == errSecSuccess else {
        throw .unwritable(location: location, reason: "OSStatus \(status)")
      }
    }

    /// Deletes the item.
    public func removeSession() throws(SessionStoreError) {
      let status = SecItemDelete(query as CFDictionary)
      guard status == errSecSuccess || status == errSecItemNotFound else {
        throw .unwritable(location: location, reason: "OSStatus \(status)")
      }
    }
  }
#endif
