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

/** What an answer's errors name: the call, as "POST /api/v1/iccid/batch". */
export interface Call {
  method: string;
  path: string;
}

function callName(call: Call): string {
  return `${call.method} /api/v1${call.path}`;
}

/** The error for a successful answer off the contract, naming the call, the status and the request id. */
export function invalidAnswer(call: Call, answer: Pick<Answer<string>, "status" | "headers">, issues: ValidationIssue[], body: unknown): ResponseValidationError {
  return new ResponseValidationError({ what: `the answer to ${callName(call)}`, status: answer.status, requestId: answer.headers["x-request-id"], issues, body });
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

/**
 * The answer's body parsed as JSON and checked against `schema`; a ResponseValidationError naming the call,
 * the status and the request id when the body is not JSON or breaks the contract.
 */
export function checkedAnswer<T>(call: Call, schema: ResponseSchema<T>, answer: Answer<string | Buffer>): T {
  const text = typeof answer.body === "string" ? answer.body : answer.body.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidAnswer(call, answer, [{ path: "", message: `the body is not JSON (content-type ${answer.headers["content-type"] ?? "none"})` }], text);
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw invalidAnswer(call, answer, checked.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message })), parsed);
  }
  return checked.data;
}
