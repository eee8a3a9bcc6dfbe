import Foundation

/// Why a download could not be saved, or could not be trusted to be whole.
///
/// In every case nothing is left at the destination: the bytes live in a partial file beside it
/// until they are complete.
public struct FileTransferFailure: CategorizedError, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The destination's folder does not exist or cannot be written to.
    case destinationNotWritable
    /// The disk (or the user's quota) is full.
    case diskFull
    /// The partial file disappeared while it was being written.
    case fileVanished
    /// The body ended before the size the server announced.
    case incomplete
    /// The server's answer to a resumed range does not fit the bytes already on disk.
    case rangeMismatch
  }

  /// What went wrong.
  public var kind: Kind
  /// The file concerned.
  public var path: String
  /// A developer-facing detail, such as the system's error.
  public var detail: String

  /// Creates a failure.
  public init(kind: Kind, path: String, detail: String) {
    self.kind = kind
    self.path = path
    self.detail = detail
  }

  /// `"diskFull at /tmp/photo.jpg: No space left on device"`.
  public var description: String { "\(kind.rawValue) at \(path): \(detail)" }
}

extension FileTransferFailure {
  /// A full disk or an unwritable place is the device's problem; a body that arrived short or
  /// out of place is the server's.
  public var category: ErrorCategory {
    switch kind {
    case .diskFull: .storageFull
    case .destinationNotWritable, .fileVanished: .fileNotSaved
    case .incomplete, .rangeMismatch: .unreadableResponse
    }
  }
}
