/// A user the simulated Places API knows.
public struct SimulatedUser: Sendable, Hashable {
  /// The login email.
  public var email: String
  /// The password; these are demo users, so it is public.
  public var password: String
  /// The name to greet the user with.
  public var name: String

  /// Creates a user.
  public init(email: String, password: String, name: String) {
    self.email = email
    self.password = password
    self.name = name
  }
}
