// `Link` headers (RFC 8288), as pagination reads them. Checks: no crash; every relation is
// lower-cased and found again by `url(forRelation:)`; every link is absolute.
import Foundation

@testable import Convoy

private let base = URL(string: "https://api.example.com/items?page=2")!

/// libFuzzer calls this once per input; a failed check traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  for baseURL in [base, nil] {
    let header = LinkHeader(text, baseURL: baseURL)
    for link in header.links {
      for relation in link.relations {
        precondition(relation == relation.lowercased(), "a relation that is not lower-cased")
        precondition(header.url(forRelation: relation) != nil, "a relation that is not found")
      }
      precondition(link.parameters["anchor"] == nil, "a link about another resource was kept")
    }
  }
  return 0
}
