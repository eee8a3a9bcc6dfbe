import Foundation

extension CallMetricsRecorder {
  /// Keeps the transfer of an attempt's answer and puts the call's metrics so far on its head.
  func stamp(_ received: inout CallPipeline.Received) {
    stamp(&received.response.head, transfer: received.response.metrics)
  }
}
