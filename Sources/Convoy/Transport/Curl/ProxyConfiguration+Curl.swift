#if os(Linux)
  extension ProxyConfiguration {
    /// The proxy as libcurl's `CURLOPT_PROXY` takes it, without credentials (they go in their own
    /// options, so they never appear in a URL).
    var curlURL: String {
      let scheme = kind == .socks5 ? "socks5h" : "http"
      let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
      return "\(scheme)://\(bracketed):\(port)"
    }

    /// Sets the proxy's options on a transfer's handle.
    func apply(to easy: CurlLibrary.Easy, library: CurlLibrary) {
      _ = curlURL.withCString { library.easySetPointer(easy, CurlConstant.proxy, $0) }
      // Set even when empty: an explicit proxy replaces the environment's `no_proxy` too.
      _ = bypassing.joined(separator: ",").withCString {
        library.easySetPointer(easy, CurlConstant.noProxy, $0)
      }
      if let credentials {
        _ = credentials.user.withCString {
          library.easySetPointer(easy, CurlConstant.proxyUsername, $0)
        }
        _ = credentials.password.withCString {
          library.easySetPointer(easy, CurlConstant.proxyPassword, $0)
        }
      }
    }
  }
#endif
