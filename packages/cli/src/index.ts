// The package's programmatic face: the command tree (for embedding and tests) and its exit codes.
export { buildProgram, main } from "./program.js";
export { ExitCode } from "./exit-codes.js";
export { CommandContext } from "./command-context.js";
