import Foundation

// convoy-openapi: see Docs/OpenAPI.md. Everything happens in `OpenAPICommand.run`; this file only
// wires the process to it.
let code = OpenAPICommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
