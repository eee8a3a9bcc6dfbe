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
/// `Places/2.1 (com.example.places; build:42; iOS 17.4.1) Convoy/0.1.0`.
public struct DefaultHeaders: RequestAdapter, DeadlineAware {
  /// The fields filled in when missing.
  public var headers: HTTPHeaders {
    didSet { prepare() }
  }
  /// Whether every field can be set in one assignment (see `fill(_:)`); kept rather than checked
  /// per call.
  private var isStoredVerbatim = false
  /// What a request without any field gets, when the fields are stored verbatim: most requests
  /// reach this adapter without one, and building the dictionary for each cost more than the
  /// rest of the adapter.
  private var fieldsOfABareRequest: [String: String] = [:]

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
    prepare()
  }

  private mutating func prepare() {
    isStoredVerbatim = headers.fields.allSatisfy(Self.isStoredVerbatim)
    fieldsOfABareRequest = isStoredVerbatim ? adding(to: [:]) ?? [:] : [:]
  }

  /// Returns the request with every missing field set.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    var request = request
    fill(&request)
    return request
  }

  /// Sets every missing field on `request` in place; the pipeline calls it directly, sparing the
  /// copy of the `NSMutableURLRequest` that mutating a by-value request costs.
  ///
  /// FoundationNetworking's `setValue(_:forHTTPHeaderField:)` validates the value and re-cases
  /// the name each time it is called, once per field of every call, so the fields go in with one
  /// assignment of `allHTTPHeaderFields` instead. That assignment is used only where it stores
  /// exactly what `setValue` would: names already in the re-cased form (`Accept-Language`) and
  /// values of printable ASCII, which `setValue` keeps as they are.
  func fill(_ request: inout URLRequest) {
    guard isStoredVerbatim else {
      for field in headers where request.value(forHTTPHeaderField: field.name) == nil {
        request.setValue(field.value, forHTTPHeaderField: field.name)
      }
      return
    }
    let fields = request.allHTTPHeaderFields ?? [:]
    if fields.isEmpty {
      if !fieldsOfABareRequest.isEmpty { request.allHTTPHeaderFields = fieldsOfABareRequest }
    } else if let filled = adding(to: fields) {
      request.allHTTPHeaderFields = filled
    }
  }

  /// `fields` with every one of ``headers`` it lacks, or `nil` when it lacks none.
  private func adding(to fields: [String: String]) -> [String: String]? {
    var fields = fields
    var changed = false
    // A scan of a few names, not a Set of lowercased copies: building that set was most of the
    // cost of this adapter.
    for field in headers
    where !fields.keys.contains(where: { HTTPHeaders.namesMatch($0, field.name) }) {
      fields[field.name] = field.value
      changed = true
    }
    return changed ? fields : nil
  }

  /// Whether `setValue(_:forHTTPHeaderField:)` would store the field unchanged: each `-`-separated
  /// part of the name one capital letter then lowercase letters or digits, the value printable
  /// ASCII.
  private static func isStoredVerbatim(_ field: HTTPHeaders.Field) -> Bool {
    var atPartStart = true
    for byte in field.name.utf8 {
      let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      let isLowerOrDigit =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      if atPartStart {
        guard isUpper else { return false }
        atPartStart = false
      } else if byte == UInt8(ascii: "-") {
        atPartStart = true
      } else if !isLowerOrDigit {
        return false
      }
    }
    return !atPartStart && field.value.utf8.allSatisfy { (0x20...0x7E).contains($0) }
  }

  /// `Name/Version (bundle-id; build:N; OS version) Convoy/0.1.0`, from the bundle's
  /// `Info.plist` when there is one (apps), else from the process name (command-line tools,
  /// Linux services).
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
    return "\(product) (\(details.joined(separator: "; "))) Convoy/\(ConvoyVersion.current)"
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
