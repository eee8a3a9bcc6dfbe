import Foundation
import Testing

@testable import Convoy

/// Always returns the same value, so jitter becomes predictable.
private struct FixedGenerator: RandomNumberGenerator {
  var value: UInt64
  mutating func next() -> UInt64 { value }
}

@Suite struct RetryPolicyTests {
  private let noJitter = RetryPolicy(
    maximumRetries: 5, baseDelay: 1, multiplier: 2, maximumDelay: 5, jitter: 0)

  @Test func backOffGrowsExponentiallyUpToTheMaximum() {
    #expect((1...5).map(noJitter.backoff(beforeRetry:)) == [1, 2, 4, 5, 5])
  }

  @Test(arguments: [408, 429, 502, 503, 504])
  func transientStatusesAreRetried(status: Int) {
    let delay = noJitter.delay(
      after: .response(transportResponse(status: status)), context: .probe())
    #expect(delay == 1)
  }

  @Test(arguments: [400, 401, 404, 500, 501])
  func otherStatusesAreNot(status: Int) {
    #expect(
      noJitter.delay(after: .response(transportResponse(status: status)), context: .probe()) == nil)
  }

  @Test func aStatusTheRequestAcceptsIsNotRetried() {
    let context = RequestContext.probe(acceptableStatusCodes: 200..<600)
    #expect(
      noJitter.delay(after: .response(transportResponse(status: 503)), context: context) == nil)
  }

  @Test func onlyTransientTransportFailuresAreRetried() {
    let retried = TransportFailure.Kind.allCases.filter {
      noJitter.delay(after: .failure(TransportFailure(kind: $0, detail: "")), context: .probe())
        != nil
    }
    #expect(Set(retried) == RetryPolicy.transientFailures)
    #expect(!retried.contains(.cancelled) && !retried.contains(.secureConnectionFailed))
  }

  @Test func retriesStopAtTheMaximum() {
    let response = RetryPolicy.Trigger.response(transportResponse(status: 503))
    #expect(noJitter.delay(after: response, context: .probe(retries: 4)) == 5)
    #expect(noJitter.delay(after: response, context: .probe(retries: 5)) == nil)
    #expect(RetryPolicy.never.delay(after: response, context: .probe()) == nil)
  }

  @Test func aCallThatMayNotBeRepeatedIsNeverRetried() {
    let context = RequestContext.probe(method: .post, isRetryable: false)
    #expect(
      noJitter.delay(after: .response(transportResponse(status: 503)), context: context) == nil)
  }

  @Test func aCallThatNeverLeftTheClientIsRetriedWhateverItsMethod() {
    let post = RequestContext.probe(method: .post, isRetryable: false)
    for kind in RetryPolicy.unsentFailures {
      let failure = RetryPolicy.Trigger.failure(TransportFailure(kind: kind, detail: "unsent"))
      #expect(noJitter.delay(after: failure, context: post) != nil)
    }
    // The server may have acted on these: a POST is not sent again.
    for kind in [TransportFailure.Kind.networkConnectionLost, .timedOut, .badServerResponse] {
      let failure = RetryPolicy.Trigger.failure(TransportFailure(kind: kind, detail: "sent"))
      #expect(noJitter.delay(after: failure, context: post) == nil)
    }
    // A body that cannot be sent again is not, even when nothing was sent.
    var oneShot = post
    oneShot.isBodyReplayable = false
    let refused = RetryPolicy.Trigger.failure(
      TransportFailure(kind: .cannotConnectToHost, detail: "refused"))
    #expect(noJitter.delay(after: refused, context: oneShot) == nil)
  }

  @Test func aServerThatCannotProveItsIdentityIsNeverRetried() {
    let get = RequestContext.probe(method: .get, isRetryable: true)
    for kind in [TransportFailure.Kind.untrustedServerCertificate, .pinnedKeyMismatch] {
      let failure = RetryPolicy.Trigger.failure(TransportFailure(kind: kind, detail: "trust"))
      #expect(noJitter.delay(after: failure, context: get) == nil)
    }
  }

  @Test func aWaitPastTheDeadlineIsNotTaken() {
    let context = RequestContext.probe(deadline: Date().addingTimeInterval(0.5))
    #expect(
      noJitter.delay(after: .response(transportResponse(status: 503)), context: context) == nil)
  }

  @Test func jitterShortensTheWaitByAtMostItsFraction() {
    let policy = RetryPolicy(baseDelay: 2, jitter: 0.5)
    let trigger = RetryPolicy.Trigger.response(transportResponse(status: 503))
    var lowest = FixedGenerator(value: 0)
    var highest = FixedGenerator(value: .max)
    let longest = policy.delay(after: trigger, context: .probe(), now: Date(), using: &lowest)
    let shortest = policy.delay(after: trigger, context: .probe(), now: Date(), using: &highest)
    #expect(longest == 2)
    #expect(shortest.map { $0 >= 1 && $0 < 1.01 } == true)
    for _ in 0..<100 {
      let delay = policy.delay(after: trigger, context: .probe()) ?? -1
      #expect(delay >= 1 && delay <= 2)
    }
  }

  @Test func retryAfterInSecondsSetsTheWait() {
    let response = transportResponse(status: 429, headers: ["Retry-After": "3"])
    #expect(noJitter.delay(after: .response(response), context: .probe()) == 3)
  }

  @Test func retryAfterAsAnHTTPDateSetsTheWait() throws {
    let now = try #require(HTTPDate.parse("Wed, 21 Oct 2015 07:28:00 GMT"))
    for value in [
      "Wed, 21 Oct 2015 07:28:04 GMT", "Wednesday, 21-Oct-15 07:28:04 GMT",
      "Wed Oct 21 07:28:04 2015",
    ] {
      let response = transportResponse(status: 503, headers: ["Retry-After": value])
      #expect(
        noJitter.delay(
          after: .response(response), context: .probe(deadline: .distantFuture), now: now)
          == 4, "\(value)")
    }
  }

  @Test func aRetryAfterDateInThePastMeansNow() {
    let response = transportResponse(
      status: 503, headers: ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"])
    #expect(noJitter.delay(after: .response(response), context: .probe()) == 0)
  }

  @Test func aRetryAfterLongerThanTheMaximumDelayIsNotWaitedFor() {
    let response = transportResponse(status: 503, headers: ["Retry-After": "120"])
    #expect(noJitter.delay(after: .response(response), context: .probe()) == nil)
  }

  @Test func anUnreadableOrIgnoredRetryAfterFallsBackToBackOff() {
    let garbled = transportResponse(status: 503, headers: ["Retry-After": "soon"])
    #expect(noJitter.delay(after: .response(garbled), context: .probe()) == 1)
    var ignoring = noJitter
    ignoring.honoursRetryAfter = false
    let asked = transportResponse(status: 503, headers: ["Retry-After": "3"])
    #expect(ignoring.delay(after: .response(asked), context: .probe()) == 1)
  }

  @Test func valuesOutsideTheirRangeAreClamped() {
    let policy = RetryPolicy(maximumRetries: -1, baseDelay: -1, multiplier: 0.5, jitter: 3)
    #expect(policy.maximumRetries == 0 && policy.baseDelay == 0)
    #expect(policy.multiplier == 1 && policy.jitter == 1)
  }
}
