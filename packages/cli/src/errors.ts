import { ExitCode } from "./exit-codes.js";

/**
 * An error the CLI itself raises, with the exit code it stands for. Commands throw it instead of
 * calling process.exit so that one handler (handler.ts) prints every failure the same way.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.error,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** A bad command line: a wrong flag value, a missing argument, a column that is not there. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = "UsageError";
  }
}

/** No usable credentials before any request was made (no key, a mistyped key, no session). */
export class CredentialsError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.auth);
    this.name = "CredentialsError";
  }
}

/**
 * Why a file cannot be opened or read, the common causes in words (`missing`: what "no such file" means
 * where it is asked, for an output the folder it goes in); any other cause as Node says it.
 */
export function fileProblem(error: NodeJS.ErrnoException, missing: string): string {
  if (error.code === "ENOENT") return missing;
  if (error.code === "EACCES") return "permission denied";
  if (error.code === "EISDIR") return "is a folder";
  return error.message;
}
