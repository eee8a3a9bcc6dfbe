extension HTTPMethod {
  /// Whether the method only reads (RFC 9110 §9.2.1). RFC 9111 §4.4 invalidates stored
  /// answers after any other method succeeds.
  var isSafe: Bool {
    switch rawValue {
    case "GET", "HEAD", "OPTIONS", "TRACE": true
    default: false
    }
  }
}
