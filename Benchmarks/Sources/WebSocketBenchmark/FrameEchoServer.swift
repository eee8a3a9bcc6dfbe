import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The default echo server: SwiftNIO's HTTP/1.1 pipeline and WebSocket upgrader on its singleton
/// group (one event loop per core), and a channel handler that writes every data frame back as
/// it came (opcode, `fin` and `rsv1` kept; pings answered, a close answered and the connection
/// closed), flushed once per read. No task, no message reassembly: the least a server can do per
/// message, so that the clients are what is measured.
///
/// permessage-deflate is agreed (`permessage-deflate`, no parameters: both directions a 32 KiB
/// window with context takeover) whenever the client offers it with no `server_*` parameter.
/// A compressed frame echoed as it came is then one the client's inflater reads: it sees exactly
/// the stream its deflater wrote, in the same order. The server does no zlib work, so the
/// compressed cells measure the clients' deflate and inflate alone.
func runFrameEchoServer() {
  let group = MultiThreadedEventLoopGroup.singleton
  let upgrader = NIOWebSocketServerUpgrader(
    maxFrameSize: 1 << 24,
    shouldUpgrade: { channel, head in
      var headers = HTTPHeaders()
      if let offer = deflateOfferWithoutServerParameters(head.headers) {
        headers.add(name: "Sec-WebSocket-Extensions", value: offer)
      }
      return channel.eventLoop.makeSucceededFuture(headers)
    },
    upgradePipelineHandler: { channel, _ in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(FrameEchoHandler())
      }
    })
  let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 1_024)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
          withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
      }
    }
  do {
    let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
    FileHandle.standardOutput.write(Data("port=\(channel.localAddress?.port ?? 0)\n".utf8))
    try channel.closeFuture.wait()
  } catch {
    FileHandle.standardError.write(Data("frame echo server: \(error)\n".utf8))
    exit(1)
  }
}

/// `permessage-deflate` when the request offers it without asking anything of the server's own
/// compression (`server_no_context_takeover`, `server_max_window_bits`): the answer that lets
/// frames be echoed as they came.
private func deflateOfferWithoutServerParameters(_ headers: HTTPHeaders) -> String? {
  let offers = headers[canonicalForm: "Sec-WebSocket-Extensions"]
  for offer in offers {
    let parameters = offer.split(separator: ";").map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard parameters.first == "permessage-deflate" else { continue }
    if parameters.contains(where: { $0.hasPrefix("server_") }) { continue }
    return "permessage-deflate"
  }
  return nil
}

private final class FrameEchoHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
      context.write(wrapOutboundOut(pong), promise: nil)
    case .pong:
      break
    case .connectionClose:
      let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(close), promise: nil)
      context.close(promise: nil)
    default:
      let echo = WebSocketFrame(
        fin: frame.fin, rsv1: frame.rsv1, opcode: frame.opcode, data: frame.unmaskedData)
      context.write(wrapOutboundOut(echo), promise: nil)
    }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    context.flush()
  }
}
