extension CachingTransport {
  /// Streams from the wrapped transport, bypassing the cache: a stream may never end and is read
  /// once, so there is nothing whole to store or to answer from.
  public func startStreamingTransfer(
    _ request: TransportRequest, receiver: any TransferReceiver
  ) -> any StreamingTransferHandle {
    transport.startStreamingTransfer(request, receiver: receiver)
  }
}

extension CoalescingTransport {
  /// Streams from the wrapped transport: every stream is its own transfer, since each reader
  /// consumes its body at its own pace.
  public func startStreamingTransfer(
    _ request: TransportRequest, receiver: any TransferReceiver
  ) -> any StreamingTransferHandle {
    transport.startStreamingTransfer(request, receiver: receiver)
  }
}
