import Foundation

extension CallMetricsRecorder {
  /// Keeps the transfer of an attempt's answer and puts the call's metrics so far on its head.
  func answered(_ received: CallPipeline.Received) -> CallPipeline.Received {
    var stamped = received
    stamped.response.head = answered(received.response.metrics, head: received.response.head)
    return stamped
  }
}
