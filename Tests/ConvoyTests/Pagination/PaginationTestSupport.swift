import Convoy
import ConvoyTesting
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A GitHub-style list: three pages of two numbers each, linked with `Link` headers (the
/// second page's link is relative); each answer comes `delay` seconds late on `clock`.
func linkedPagesStub(delay: TimeInterval = 0, clock: any ConvoyClock = .system) -> StubTransport {
  let stub = StubTransport { request in
    let components = URLComponents(url: request.urlRequest.url!, resolvingAgainstBaseURL: false)
    let page = Int(components?.queryItems?.first { $0.name == "page" }?.value ?? "1") ?? 1
    var headers: HTTPHeaders = [:]
    if page == 1 {
      headers["Link"] =
        #"<http://127.0.0.1:8080/repos?page=2>; rel="next", <http://127.0.0.1:8080/repos?page=3>; rel="last""#
    } else if page == 2 {
      headers["Link"] = #"</repos?page=1>; rel="prev", </repos?page=3>; rel="next""#
    }
    let answer = StubTransport.Answer.json([page * 10 + 1, page * 10 + 2], headers: headers)
    return delay > 0 ? .delayed(delay, answer) : answer
  }
  stub.clock = clock
  return stub
}

struct Repositories: LinkHeaderPaginatedRequest {
  typealias Response = JSONResponse<[Int]>
  typealias Element = Int
  var pageURL: URL?
  var method: HTTPMethod { .get }
  var path: String { pageURL?.absoluteString ?? "repos" }
}

extension ServerConnection {
  static func paging(_ transport: StubTransport) -> ServerConnection {
    ServerConnection(configuration: .local(port: 8080), transport: transport)
  }
}
