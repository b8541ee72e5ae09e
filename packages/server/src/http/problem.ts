import { PROBLEM_CODES, problemType, type FieldError, type Problem, type ProblemCode } from "@iccid/core";

export interface ProblemExtras {
  errors?: FieldError[];
  retry_after?: number;
  resets_at?: string;
  required_scope?: string;
  /** Response headers that belong to this answer (Allow, WWW-Authenticate, RateLimit fields). */
  headers?: Record<string, string>;
}

/** An error that is an answer: thrown anywhere, written as problem+json by the answer writer. */
export class HttpProblem extends Error {
  readonly status: number;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string = PROBLEM_CODES[code].when,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = "HttpProblem";
    this.status = PROBLEM_CODES[code].status;
  }

  /** The answer's own headers: those given, and Retry-After whenever the body has `retry_after`. */
  get headers(): Record<string, string> {
    const { headers, retry_after } = this.extras;
    return retry_after === undefined ? (headers ?? {}) : { ...headers, "Retry-After": String(retry_after) };
  }

  body(requestId: string): Problem {
    const { headers: _headers, ...members } = this.extras;
    return {
      type: problemType(this.code),
      title: PROBLEM_CODES[this.code].title,
      status: this.status,
      code: this.code,
      detail: this.detail,
      request_id: requestId,
      ...members,
    };
  }
}

/** JSON Pointer (RFC 6901) of a path of keys and indexes. */
export function jsonPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
