import Convoy
import PostgresNIO

// The table PostgresJobStore keeps, and how its failures reach the queue.

extension PostgresJobStore {
  /// One row per job: the job as `jsonb` so that an operator can read it with `psql`, its
  /// progress (with the running step's checkpoint, such as an upload's address), its claim (the expiry is the server's time) and, once it ended, its outcome.
  static func createTable(_ table: String) -> PostgresQuery {
    """
    CREATE TABLE IF NOT EXISTS \(unescaped: table) (
      id uuid PRIMARY KEY,
      accepted_order bigserial NOT NULL,
      job jsonb NOT NULL,
      next_step integer NOT NULL DEFAULT 0,
      attempts integer NOT NULL DEFAULT 0,
      checkpoint bytea,
      claim_token uuid,
      claim_expires_at timestamptz,
      outcome jsonb,
      finished_at timestamptz)
    """
  }

  /// The claim's lookup reads only unfinished rows, oldest first.
  static func createIndex(_ table: String) -> PostgresQuery {
    """
    CREATE INDEX IF NOT EXISTS \(unescaped: table)_unfinished
    ON \(unescaped: table) (accepted_order) WHERE outcome IS NULL
    """
  }

  /// Whether `name` is 1 to ``maximumTableNameLength`` of a-z, 0-9 and `_`, not starting with a
  /// digit: an identifier PostgreSQL reads as it is, with nothing to quote or escape.
  static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
      name.utf8.count <= maximumTableNameLength
    else { return false }
    return name.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
  }

  /// The server's failures as ``DurableJobQueueError/Kind/storage``, with its message and SQL
  /// state only: never the client's configuration.
  static func storageError(_ error: any Error) -> any Error {
    switch error {
    case is DurableJobQueueError, is CancellationError:
      return error
    case let error as PSQLError:
      let state = error.serverInfo?[.sqlState].map { " (\($0))" } ?? ""
      let message = error.serverInfo?[.message] ?? "\(error.code)"
      return DurableJobQueueError(.storage, detail: "PostgreSQL: \(message)\(state)")
    case let error as PostgresTransactionError:
      let cause = error.closureError ?? error.beginError ?? error.commitError ?? error
      return cause is PostgresTransactionError
        ? DurableJobQueueError(.storage, detail: "PostgreSQL transaction failed")
        : storageError(cause)
    case let error as PostgresDecodingError:
      return DurableJobQueueError(
        .storage, detail: "PostgreSQL: a column did not decode (\(error.code))")
    default:
      return DurableJobQueueError(.storage, detail: "\(error)")
    }
  }
}
