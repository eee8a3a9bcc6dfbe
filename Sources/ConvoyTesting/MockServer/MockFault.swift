import Foundation

/// A way for a ``MockServer`` to fail an answer on purpose, the way real servers and networks do.
///
/// Hang-ups close the connection in order (the client reads the end of the stream); resets end
/// it with a TCP reset (the client's read fails). Byte counts count body bytes, not framing.
public enum MockFault: Sendable, Equatable {
  /// Closes the connection as soon as the request's head has arrived, before its body is read.
  case hangUpAtRequestStart
  /// Closes the connection after this many bytes of the request's body were read.
  case hangUpDuringRequestBody(afterBytes: Int)
  /// Reads the whole request, then closes without answering.
  case hangUpBeforeHead
  /// Reads the whole request, then resets the connection without answering.
  case resetBeforeHead
  /// Sends the head, then closes before the first body byte.
  case hangUpAfterHead
  /// Sends the head and this many body bytes, then closes.
  case hangUpAfterBodyBytes(Int)
  /// Sends the head and this many body bytes, then resets the connection.
  case resetAfterBodyBytes(Int)
  /// Sends the head and this many body bytes, then sends nothing for `duration` before going
  /// on; a stall longer than the client's patience tests its idle timeout.
  case stall(afterBodyBytes: Int, for: Duration)
  /// Sends a chunked body without its last (zero-length) chunk, then closes: a body cut short
  /// that framing alone reveals.
  case omitFinalChunk
}

/// How a ``MockServer`` writes the head of an answer: correctly, or broken in a chosen way.
public enum MockHead: Sendable, Equatable {
  /// `HTTP/1.1 <status> <reason>`, the answer's headers and the framing the server adds.
  case standard
  /// A first line that is not a status line at all.
  case garbageStatusLine
  /// `Http/1.1 200 OK`: the protocol name in the wrong case, which HTTP does not allow.
  case wrongCaseProtocolName
  /// `HTTP/1.1 200` with no reason phrase, which HTTP allows.
  case noReasonPhrase
  /// Two different `Content-Length` values, the second being the true one
  /// (`Content-Length: <n + 6>, <n>`), which is invalid framing.
  case conflictingContentLength
  /// A header line without a colon among the answer's headers.
  case headerWithoutColon
  /// Exactly this text as the head: the status line and header lines, each ended by CR LF, and
  /// the empty line. The server adds nothing (no framing) and the body follows as it is.
  case raw(String)
}
