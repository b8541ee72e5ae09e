import type { AuditPage, BatchResult, CreatedKey, CreateKeyRequest, FieldError, KeyList, KeyRecord, LookupResult, Problem, Session, Usage } from "@iccid/core";
import { formatRetryAfter } from "./format.js";

/** An answer that was not a success, carrying the server's problem details when it sent them. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId: string | undefined,
    /** From Retry-After (or the body's retry_after): whole seconds before trying again is worth it. */
    readonly retryAfterSeconds: number | undefined = undefined,
    /** For invalid input (422): what was wrong with which field. */
    readonly errors: readonly FieldError[] = [],
  ) {
    super(detail);
    this.name = "ApiProblem";
  }

  /**
   * The session is gone (expired, signed out elsewhere): the page goes back to the sign-in form. On the
   * lookup routes, which take a key too, a request without the cookie is told that no key was sent.
   */
  get signedOut(): boolean {
    return this.status === 401 && (this.code === "not_authenticated" || this.code === "missing_api_key");
  }
}

async function send<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
  let response: Response;
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  try {
    response = await fetch(path, {
      method,
      // Same-origin fetches carry the HttpOnly session cookie; the browser adds Origin and Sec-Fetch-Site,
      // which is what the server's CSRF check wants to see.
      credentials: "same-origin",
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiProblem(0, "network_error", "The server could not be reached. Check your connection and try again.", undefined);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text === "" ? undefined : safeJson(text);
  if (response.ok) return data as T;
  const problem = (data ?? {}) as Partial<Problem>;
  throw new ApiProblem(
    response.status,
    problem.code ?? "http_error",
    problem.detail ?? problem.title ?? `The server answered ${response.status}.`,
    problem.request_id ?? response.headers.get("x-request-id") ?? undefined,
    retryAfter(response.headers.get("retry-after"), problem.retry_after),
    problem.errors ?? [],
  );
}

/** Retry-After in seconds (the server sends whole seconds), else the body's retry_after; undefined without either. */
function retryAfter(header: string | null, member: unknown): number | undefined {
  const seconds = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : member;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The endpoints the page uses, one line each. */
export const api = {
  session: () => send<Session>("GET", "/api/v1/session"),
  signIn: (email: string, password: string) => send<Session>("POST", "/api/v1/session", { email, password }),
  signOut: () => send<void>("DELETE", "/api/v1/session"),
  signOutEverywhere: () => send<void>("DELETE", "/api/v1/sessions"),
  listKeys: async (): Promise<KeyRecord[]> => (await send<KeyList>("GET", "/api/v1/keys")).data,
  createKey: (request: CreateKeyRequest) => send<CreatedKey>("POST", "/api/v1/keys", request),
  rollKey: (id: string, graceSeconds: number) => send<CreatedKey>("POST", `/api/v1/keys/${encodeURIComponent(id)}/roll`, { grace_seconds: graceSeconds }),
  audit: (cursor: string | undefined) => send<AuditPage>("GET", `/api/v1/audit?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
  revokeKey: (id: string) => send<void>("DELETE", `/api/v1/keys/${encodeURIComponent(id)}`),
  usage: () => send<Usage>("GET", "/api/v1/account/usage?granularity=day"),
  // The lookup routes take the page's session as they take a key: charged and rate-limited the same.
  lookup: (iccid: string) => send<LookupResult>("POST", "/api/v1/iccid/lookup", { iccid }),
  batch: (iccids: readonly string[], idempotencyKey?: string) => send<BatchResult>("POST", "/api/v1/iccid/batch", { iccids }, idempotencyKey),
};

/**
 * A message for a failed call. Server-side failures carry the request id, which is what support asks for;
 * a 4xx is the user's to fix and its detail says how, so the id would only be noise there.
 */
export function describeProblem(error: unknown): string {
  if (!(error instanceof ApiProblem)) return "Something went wrong. Reload the page and try again.";
  if (error.status === 429 && error.retryAfterSeconds !== undefined) return `${error.detail} Try again ${formatRetryAfter(error.retryAfterSeconds)}.`;
  return error.status >= 500 && error.requestId ? `${error.detail} (request id ${error.requestId})` : error.detail;
}
