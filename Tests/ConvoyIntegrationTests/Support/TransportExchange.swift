import Convoy
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One exchange straight on the transport, below Convoy's pipeline.
func exchange(_ request: TransportRequest, over transport: any HTTPTransport) async
  -> Result<TransportResponse, TransportFailure>
{
  do throws(TransportFailure) {
    return .success(try await transport.send(request).collected(within: request.responseLimits))
  } catch {
    return .failure(error)
  }
}

/// A streamed exchange straight on the transport, its body read to the end: the metrics, or
/// the failure that ended it, before or after the head.
func streamToEnd(_ request: TransportRequest, over transport: any HTTPTransport) async
  -> Result<TransferMetrics, TransportFailure>
{
  var request = request
  request.answerDelivery = .streamed(bufferSize: 64 << 10)
  do throws(TransportFailure) {
    let answer = try await transport.send(request)
    var pieces = answer.body.makeAsyncIterator()
    while try await pieces.next() != nil {}
    return .success(
      answer.body.metrics
        ?? TransferMetrics(startDate: Date(), duration: 0, bytesReceived: 0, bytesSent: 0))
  } catch {
    return .failure(error)
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
