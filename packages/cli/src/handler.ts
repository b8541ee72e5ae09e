import type { APIError } from "@iccid/sdk";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

export interface Failure {
  exitCode: ExitCode;
  /** One line for a person; the request id is part of it when the server gave one. */
  message: string;
}

// What to do next, per problem code: the server's detail says what went wrong, this says how to fix it.
// None for key_not_rollable: its detail already says what to do for each reason (roll the key that
// replaced it, or create a new one), and a general hint beside it read as a second, other answer.
const HINTS: Record<string, string> = {
  missing_api_key: "pass --api-key, set ICCID_API_KEY or run `iccid config set api_key <key>`",
  invalid_api_key: "check --api-key, ICCID_API_KEY or `iccid config get api_key`",
  revoked_api_key: "create a new one with `iccid keys create --save`",
  expired_api_key: "create a new one with `iccid keys create --save`, or roll a working one with `iccid keys roll`",
  insufficient_scope: "use a key with that scope, or create one with `iccid keys create --scope …`",
  not_authenticated: "run `iccid login` first",
  invalid_credentials: "check the email and password",
  no_active_subscription: "lookups resume once the server's operator makes the subscription active again",
};

function apiExitCode(error: APIError): ExitCode {
  if (error.status === 401 || error.status === 403) return ExitCode.auth;
  if (error.status === 429) return ExitCode.limited;
  return ExitCode.error;
}

type Sdk = typeof import("@iccid/sdk");

function apiMessage(error: APIError, { isQuotaExceededError, isRateLimitError }: Sdk): string {
  const parts = [(error.detail ?? error.title ?? `the server answered ${error.status}`).replace(/\.$/, "")];
  if (isQuotaExceededError(error) && error.resetsAt) parts.push(`the quota resets at ${utcMinute(error.resetsAt)}`);
  else if (isRateLimitError(error) && error.retryAfterMs !== undefined) {
    parts.push(`retry in ${Math.ceil(error.retryAfterMs / 1000)} s`);
  }
  const hint = error.code ? HINTS[error.code] : undefined;
  if (hint) parts.push(hint);
  // No problem document at all: most often the base URL points at another web server.
  if (!error.code && typeof error.body === "string") parts.push("is the base URL (--base-url, ICCID_BASE_URL) an ICCID Lookup server?");
  return `${error.code ?? `HTTP ${error.status}`}: ${parts.join("; ")}`;
}

const utcMinute = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Maps anything a command threw to an exit code and one line of text (docs/api.md, exit codes). */
export async function describeFailure(error: unknown): Promise<Failure> {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  // Loaded here, not at start-up, for the same reason as in command-context.ts; any SDK error means it is loaded already.
  const sdk = await import("@iccid/sdk");
  const { isAPIConnectionError, isAPIError, isIccidError, isResponseValidationError } = sdk;
  if (isAPIError(error)) {
    const id = error.requestId ? ` (request id ${error.requestId})` : "";
    return { exitCode: apiExitCode(error), message: apiMessage(error, sdk) + id };
  }
  if (isAPIConnectionError(error)) return { exitCode: ExitCode.error, message: error.message };
  if (isResponseValidationError(error)) {
    const id = error.requestId ? ` (request id ${error.requestId})` : "";
    return { exitCode: ExitCode.error, message: `${error.message}; is the server a different version?${id}` };
  }
  if (isIccidError(error)) return { exitCode: ExitCode.error, message: error.message };
  const text = error instanceof Error ? error.message : String(error);
  return { exitCode: ExitCode.error, message: `unexpected error: ${text}` };
}
