/// Raw URLSession, Convoy on URLSession and Convoy on curl against a local nginx.
func runTransportBenchmark() {
  print("transports: not implemented yet")
}
