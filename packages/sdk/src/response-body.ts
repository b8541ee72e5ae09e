import { ResponseValidationError, type ValidationIssue } from "./errors.js";
import type { HttpResponse } from "./transport.js";

// Turning a successful response's body into the checked value its call promises. client.call does it as
// soon as the response arrives; batchAll does it later, when a chunk's turn comes (see batch-all.ts).

/** What `safeParse` of a core zod schema returns, typed structurally so the SDK needs no zod import. */
export interface ResponseSchema<T> {
  safeParse(data: unknown):
    | { success: true; data: T }
    | { success: false; error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/** What a response's errors name: the call, as "POST /api/v1/iccid/batch". */
export interface Call {
  method: string;
  path: string;
}

function callName(call: Call): string {
  return `${call.method} /api/v1${call.path}`;
}

/** The error for a successful response off the contract, naming the call, the status and the request id. */
export function invalidResponse(call: Call, response: Pick<HttpResponse, "status" | "headers">, issues: ValidationIssue[], body: unknown): ResponseValidationError {
  return new ResponseValidationError({ what: `the answer to ${callName(call)}`, status: response.status, requestId: response.headers["x-request-id"], issues, body });
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

/**
 * The response's body parsed as JSON and checked against `schema`; a ResponseValidationError naming the
 * call, the status and the request id when the body is not JSON or breaks the contract.
 */
export function checkedBody<T>(call: Call, schema: ResponseSchema<T>, response: Pick<HttpResponse<string | Buffer>, "status" | "headers" | "body">): T {
  const text = typeof response.body === "string" ? response.body : response.body.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidResponse(call, response, [{ path: "", message: `the body is not JSON (content-type ${response.headers["content-type"] ?? "none"})` }], text);
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw invalidResponse(call, response, checked.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message })), parsed);
  }
  return checked.data;
}
