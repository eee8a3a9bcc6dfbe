#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
  import AuthenticationServices
  import Foundation

  /// Shows the authorization page in an `ASWebAuthenticationSession` (Apple platforms) and
  /// returns the redirect to the app's own URL scheme.
  ///
  /// ```swift no-compile: AuthenticationServices exists only on Apple platforms
  /// let agent = WebAuthenticationSessionAgent(
  ///   redirectURI: URL(string: "com.example.places:/oauth/callback")!,
  ///   anchor: { window })
  /// try await connection.login(with: .authorizationCode(through: agent))
  /// ```
  ///
  /// The person closing the sheet is a cancellation (``ServerConnectionError/cancelled``), as is
  /// cancelling the task.
  @available(iOS 13.0, macOS 10.15, *)
  public final class WebAuthenticationSessionAgent: NSObject, AuthorizationUserAgent,
    ASWebAuthenticationPresentationContextProviding, @unchecked Sendable
  {
    /// The app's redirect URI; its scheme is the one the session waits for.
    public let redirectURI: URL
    /// Whether the session shares no cookies with the browser (no "signed in already").
    public let prefersEphemeralSession: Bool
    private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
    // The session in flight, so that a task cancellation can close it.
    private let current = Locked<ASWebAuthenticationSession?>(nil)

    /// Creates an agent.
    ///
    /// - Parameters:
    ///   - redirectURI: The app's redirect URI, e.g. `com.example.places:/oauth/callback`.
    ///   - prefersEphemeralSession: Whether to share no cookies with the browser.
    ///   - anchor: The window the sheet is shown over.
    public init(
      redirectURI: URL, prefersEphemeralSession: Bool = false,
      anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
    ) {
      self.redirectURI = redirectURI
      self.prefersEphemeralSession = prefersEphemeralSession
      self.anchor = anchor
    }

    /// Shows `url` in the session and returns the redirect.
    public func authorize(at url: URL) async throws -> URL {
      let scheme = redirectURI.scheme
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          Task { @MainActor in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) {
              callback, error in
              if let callback {
                continuation.resume(returning: callback)
              } else if let error = error as? ASWebAuthenticationSessionError,
                error.code == .canceledLogin
              {
                continuation.resume(throwing: ServerConnectionError.cancelled)
              } else {
                continuation.resume(
                  throwing: BrowserLoginError.listenerFailed(
                    error.map { String(describing: $0) } ?? "no redirect"))
              }
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            current.withLock { $0 = session }
            if !session.start() {
              continuation.resume(
                throwing: BrowserLoginError.listenerFailed("the session could not start"))
            }
          }
        }
      } onCancel: {
        let session = current.withLock { $0 }
        Task { @MainActor in session?.cancel() }
      }
    }

    /// The window the sheet is shown over.
    public func presentationAnchor(for session: ASWebAuthenticationSession)
      -> ASPresentationAnchor
    {
      MainActor.assumeIsolated { anchor() }
    }
  }
#endif
