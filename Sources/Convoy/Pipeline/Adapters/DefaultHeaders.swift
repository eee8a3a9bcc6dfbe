import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Fills in the headers a well-behaved client sends — `User-Agent`, `Accept`, `Accept-Language`,
/// `Accept-Encoding` — wherever the request, the configuration or an earlier adapter left them
/// unset. It is one of ``ServerConnection/standardAdapters``.
///
/// FoundationNetworking's own `User-Agent` ("<process> (unknown version) curl/…") tells a server
/// nothing about the app; this one does:
/// `Places/2.1 (com.example.places; build:42; iOS 17.4.1) Convoy`.
public struct DefaultHeaders: RequestAdapter {
  /// The fields filled in when missing.
  public var headers: HTTPHeaders

  /// Creates the adapter; pass `nil` to leave a header out.
  ///
  /// - Parameters:
  ///   - userAgent: Names the app, its version and the OS.
  ///   - accept: Prefers JSON without refusing other types, so data endpoints still work.
  ///   - acceptLanguage: The user's preferred languages, most preferred first.
  ///   - acceptEncoding: Only codings both URLSession and libcurl decode on their own.
  public init(
    userAgent: String? = DefaultHeaders.userAgent(),
    accept: String? = "application/json, */*;q=0.8",
    acceptLanguage: String? = DefaultHeaders.acceptLanguage(),
    acceptEncoding: String? = "gzip, deflate"
  ) {
    var headers = HTTPHeaders()
    headers["User-Agent"] = userAgent
    headers["Accept"] = accept
    headers["Accept-Language"] = acceptLanguage
    headers["Accept-Encoding"] = acceptEncoding
    self.headers = headers
  }

  /// Returns the request with every missing field set.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    var request = request
    for field in headers where request.value(forHTTPHeaderField: field.name) == nil {
      request.setValue(field.value, forHTTPHeaderField: field.name)
    }
    return request
  }

  /// `Name/Version (bundle-id; build:N; OS version) Convoy`, from the bundle's `Info.plist` when
  /// there is one (apps), else from the process name (command-line tools, Linux services).
  ///
  /// Name and version are reduced to RFC 9110 token characters, so a header never carries
  /// spaces or non-ASCII text.
  public static func userAgent(
    bundle: Bundle = .main, processInfo: ProcessInfo = .processInfo
  ) -> String {
    let info = bundle.infoDictionary ?? [:]
    let name =
      (info["CFBundleName"] as? String) ?? (info["CFBundleExecutable"] as? String)
      ?? processInfo.processName
    var product = token(name)
    if let version = info["CFBundleShortVersionString"] as? String {
      product += "/" + token(version)
    }
    var details: [String] = []
    if let identifier = bundle.bundleIdentifier { details.append(token(identifier)) }
    if let build = info["CFBundleVersion"] as? String { details.append("build:" + token(build)) }
    let os = processInfo.operatingSystemVersion
    details.append(
      "\(operatingSystemName) \(os.majorVersion).\(os.minorVersion).\(os.patchVersion)")
    return "\(product) (\(details.joined(separator: "; "))) Convoy"
  }

  /// The languages as an `Accept-Language` value with falling q-values
  /// (`de-CH, en;q=0.9, fr;q=0.8`), at most six of them; `nil` when there are none.
  public static func acceptLanguage(
    preferredLanguages: [String] = Locale.preferredLanguages
  ) -> String? {
    let languages = preferredLanguages.prefix(6).map(token).filter { !$0.isEmpty }
    guard !languages.isEmpty else { return nil }
    return languages.enumerated().map { index, language in
      index == 0 ? language : "\(language);q=0.\(10 - index)"
    }.joined(separator: ", ")
  }

  private static var operatingSystemName: String {
    #if os(iOS)
      "iOS"
    #elseif os(macOS)
      "macOS"
    #elseif os(tvOS)
      "tvOS"
    #elseif os(watchOS)
      "watchOS"
    #elseif os(visionOS)
      "visionOS"
    #elseif os(Linux)
      "Linux"
    #elseif os(Windows)
      "Windows"
    #else
      "Unknown"
    #endif
  }

  // RFC 9110 §5.6.2 tchar.
  private static let tokenCharacters = Set(
    "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

  private static func token(_ text: String) -> String {
    let folded = text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
    return String(folded.map { tokenCharacters.contains($0) ? $0 : "-" })
  }
}
