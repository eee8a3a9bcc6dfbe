import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One exchange straight on the transport, below Convoy's pipeline.
func exchange(_ request: TransportRequest, over transport: any HTTPTransport) async
  -> Result<TransportResponse, TransportFailure>
{
  await withCheckedContinuation { continuation in
    _ = transport.startTransfer(request) { continuation.resume(returning: $0) }
  }
}

/// A `GET` of `url` straight on the transport.
func exchange(_ url: URL, over transport: any HTTPTransport, idleTimeout: TimeInterval = 20)
  async -> Result<TransportResponse, TransportFailure>
{
  await exchange(
    TransportRequest(urlRequest: URLRequest(url: url), idleTimeout: idleTimeout),
    over: transport)
}
