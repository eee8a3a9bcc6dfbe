/// The version of Convoy this is, the newest one CHANGELOG.md names; servers see it in the
/// `User-Agent` (`… Convoy/0.1.0`). A test checks that the two agree.
enum ConvoyVersion {
  static let current = "0.1.0"
}
