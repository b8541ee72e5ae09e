import { ResponseValidationError, type ResponseHeaders, type ValidationIssue } from "./errors.js";

// Turning a successful answer's body into the checked value its call promises. client.call does it as
// soon as the answer arrives; batchAll does it later, when a chunk's turn comes (see batch-all.ts).

/** What `safeParse` of a core zod schema returns, typed structurally so the SDK needs no zod import. */
export interface ResponseSchema<T> {
  safeParse(data: unknown):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/** A successful (1xx–3xx) answer: its body as text, or as the undecoded bytes of `callBytes`. */
export interface Answer<B extends string | Buffer> {
  status: number;
  /** Lower-cased names; repeated fields joined with ", ". */
  headers: ResponseHeaders;
  body: B;
}

/** A call as errors name it: "POST /api/v1/iccid/batch". */
export function callName(call: { method: string; path: string }): string {
  return `${call.method} /api/v1${call.path}`;
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

/**
 * The answer's body parsed as JSON and checked against `schema`; a ResponseValidationError naming the call,
 * the status and the request id when the body is not JSON or breaks the contract.
 */
export function checkedAnswer<T>(call: { method: string; path: string }, schema: ResponseSchema<T>, answer: Answer<string | Buffer>): T {
  const text = typeof answer.body === "string" ? answer.body : answer.body.toString("utf8");
  const invalid = (issues: ValidationIssue[], body: unknown) =>
    new ResponseValidationError({ what: `the answer to ${callName(call)}`, status: answer.status, requestId: answer.headers["x-request-id"], issues, body });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid([{ path: "", message: `the body is not JSON (content-type ${answer.headers["content-type"] ?? "none"})` }], text);
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw invalid(checked.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message })), parsed);
  }
  return checked.data;
}
