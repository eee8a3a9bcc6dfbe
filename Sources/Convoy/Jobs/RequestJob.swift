/// A single call as a job, so that `execute` runs inside an operation like everything else.
struct RequestJob<Request: RequestDescribing>: Job {
  let request: Request

  func makeOperation(on connection: ServerConnection) -> ResultOperation<Request.Response> {
    connection.operation(for: request)
  }
}
