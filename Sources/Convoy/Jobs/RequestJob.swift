/// A single call as a job, so that `execute` runs inside an operation like everything else.
///
/// Its call already reports its own events; as a job it reports none.
struct RequestJob<Request: RequestDescribing>: Job, UnreportedJob {
  let request: Request

  func makeOperation(on connection: ServerConnection) -> ResultOperation<Request.Response> {
    connection.operation(for: request)
  }
}

/// A job that is an implementation detail and reports no job events of its own.
protocol UnreportedJob {}
