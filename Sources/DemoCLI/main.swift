import Foundation

// democli: see Docs/DemoCLI.md. Everything happens in `DemoCLI.run`; this file only wires the
// process to it.
let interruption = Interruption()
interruption.install()
let code = await DemoCLI.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  environmentVariables: ProcessInfo.processInfo.environment, interruption: interruption)
exit(code.rawValue)
