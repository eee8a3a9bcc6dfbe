/// Chains and groups of operations against plain `BlockOperation`s and a `TaskGroup`.
func runOrchestrationBenchmark() {
  print("orchestration: not implemented yet")
}
