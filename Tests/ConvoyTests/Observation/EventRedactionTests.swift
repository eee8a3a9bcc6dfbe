import Convoy
import Foundation
import Testing

/// Every payload that carries a URL, headers or a reason redacts them when it is made, so no
/// observer (a logger, an app's own closure) can see a secret.
@Suite struct EventRedactionTests {
  private static let secrets = ["pw-s3cret", "tok-s3cret", "rt-s3cret", "hunter2", "sid-s3cret"]
  private static let url = URL(
    string: "https://ada:pw-s3cret@api.example.com/v2/cb?access_token=tok-s3cret&page=2")!
  private static let reason = #"{"refresh_token":"rt-s3cret"} password=hunter2"#
  private static let call = ConvoyEvent.CallIdentity(id: 1, method: .post)
  private static let job = ConvoyEvent.JobIdentity(id: 2, name: "LoginJob")

  /// Fails when `text` holds any secret, or lost the parts that are not secret.
  private static func expectRedacted(
    _ text: String?, keeping kept: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let text else {
      Issue.record("no text", sourceLocation: sourceLocation)
      return
    }
    for secret in secrets {
      #expect(!text.contains(secret), "\(text)", sourceLocation: sourceLocation)
    }
    if let kept { #expect(text.contains(kept), "\(text)", sourceLocation: sourceLocation) }
  }

  /// What observers read of an event: the whole value, and the lines the loggers write.
  private static func expectNothingLeaks(
    from kind: ConvoyEvent.Kind, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let event = ConvoyEvent(kind)
    for text in [
      String(describing: event), String(decoding: JSONLinesLogger.encode(event), as: UTF8.self),
      ConsoleLogger.line(for: event),
    ] {
      expectRedacted(text, sourceLocation: sourceLocation)
    }
  }

  @Test func requestCreatedRedactsItsURL() {
    let created = ConvoyEvent.RequestCreated(call: Self.call, url: Self.url)
    Self.expectRedacted(created.url, keeping: "page=2")
    #expect(created.url?.contains("ada@") == false)
    Self.expectNothingLeaks(from: .requestCreated(created))
  }

  @Test func requestAdaptedRedactsItsURLAndHeaders() {
    let adapted = ConvoyEvent.RequestAdapted(
      call: Self.call, url: Self.url, attempt: 1,
      headers: [
        "Authorization": "Bearer tok-s3cret", "Cookie": "sid=sid-s3cret", "Accept": "*/*",
      ])
    Self.expectRedacted(adapted.url, keeping: "page=2")
    #expect(adapted.headers["Authorization"] == SecretRedactor.mask)
    #expect(adapted.headers["Cookie"] == SecretRedactor.mask)
    #expect(adapted.headers["Accept"] == "*/*")
    Self.expectNothingLeaks(from: .requestAdapted(adapted))
  }

  @Test func requestSentRedactsItsURL() {
    let sent = ConvoyEvent.RequestSent(call: Self.call, url: Self.url, attempt: 1)
    Self.expectRedacted(sent.url, keeping: "page=2")
    Self.expectNothingLeaks(from: .requestSent(sent))
  }

  @Test func responseReceivedRedactsItsURL() {
    let response = ConvoyEvent.ResponseReceived(
      call: Self.call, url: Self.url, attempt: 1, status: 200, bytes: 2, duration: 0.1)
    Self.expectRedacted(response.url, keeping: "page=2")
    Self.expectNothingLeaks(from: .responseReceived(response))
  }

  @Test func decisionTakenRedactsItsURL() {
    let decision = ConvoyEvent.DecisionTaken(
      call: Self.call, url: Self.url, attempt: 1, decision: "RetryDecision", outcome: .retry)
    Self.expectRedacted(decision.url, keeping: "page=2")
    Self.expectNothingLeaks(from: .decisionTaken(decision))
  }

  @Test func requestRetriedRedactsItsURLAndReason() {
    let retried = ConvoyEvent.RequestRetried(
      call: Self.call, url: Self.url, attempt: 1, delay: 0.5, reason: Self.reason)
    Self.expectRedacted(retried.url, keeping: "page=2")
    Self.expectRedacted(retried.reason, keeping: "refresh_token")
    Self.expectNothingLeaks(from: .requestRetried(retried))
  }

  @Test func theEndsOfACallRedactTheirURLAndReason() {
    let finished = ConvoyEvent.RequestFinished(
      call: Self.call, url: Self.url, status: 200, duration: 1)
    let failed = ConvoyEvent.RequestFailed(
      call: Self.call, url: Self.url, status: 400, reason: Self.reason,
      errorCategory: .invalidInput, duration: 1)
    let cancelled = ConvoyEvent.RequestCancelled(call: Self.call, url: Self.url, duration: 1)
    for url in [finished.url, failed.url, cancelled.url] {
      Self.expectRedacted(url, keeping: "page=2")
    }
    Self.expectRedacted(failed.reason, keeping: "password")
    Self.expectNothingLeaks(from: .requestFinished(finished))
    Self.expectNothingLeaks(from: .requestFailed(failed))
    Self.expectNothingLeaks(from: .requestCancelled(cancelled))
  }

  @Test func jobFailedRedactsItsReason() {
    let failed = ConvoyEvent.JobFailed(
      job: Self.job, status: nil, reason: Self.reason, errorCategory: .wrongCredentials,
      duration: 1)
    Self.expectRedacted(failed.reason, keeping: "refresh_token")
    Self.expectNothingLeaks(from: .jobFailed(failed))
  }

  @Test func streamReconnectingRedactsItsURLAndReason() {
    let reconnecting = ConvoyEvent.StreamReconnecting(
      call: Self.call, url: Self.url, attempt: 1, delay: 3, reason: Self.reason)
    Self.expectRedacted(reconnecting.url, keeping: "page=2")
    Self.expectRedacted(reconnecting.reason, keeping: "refresh_token")
    Self.expectNothingLeaks(from: .streamReconnecting(reconnecting))
  }

  @Test func noticeRedactsItsText() {
    let notice = ConvoyEvent.Notice("token revocation failed: \(Self.reason)")
    Self.expectRedacted(notice.text, keeping: "token revocation failed")
    Self.expectNothingLeaks(from: .notice(notice))
    guard case .notice(let made) = ConvoyEvent.notice(Self.reason).kind else {
      Issue.record("not a notice")
      return
    }
    Self.expectRedacted(made.text, keeping: "password")
  }
}
