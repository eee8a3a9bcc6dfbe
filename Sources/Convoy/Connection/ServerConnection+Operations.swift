// Operations know the pipeline, not the connection (they sit below it); these are the ways an app
// makes one from a connection.

extension NetworkRequestOperation {
  /// Creates an operation that sends `request` through `connection` once it starts.
  ///
  /// - Parameters:
  ///   - request: What to send.
  ///   - connection: The connection it goes through.
  ///   - uploadProgress: Told the bytes of the body sent so far, and in all.
  public convenience init(
    _ request: Request, connection: ServerConnection,
    uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
  ) {
    self.init(request, pipeline: connection.pipeline, uploadProgress: uploadProgress)
  }
}

extension ServerConnection {
  /// An operation that sends `request` through this connection, for chains and groups.
  ///
  /// ```swift
  /// connection.operation(for: ProfileRequest())
  ///   .then { profile in connection.operation(for: AvatarRequest(url: profile.value.avatar)) }
  /// ```
  public func operation<Request: RequestDescribing>(for request: Request)
    -> NetworkRequestOperation<Request>
  {
    NetworkRequestOperation(request, connection: self)
  }
}
