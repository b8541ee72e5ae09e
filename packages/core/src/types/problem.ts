/** One field an input error is about. */
export interface FieldError {
  /** JSON Pointer (RFC 6901) to the offending field, e.g. `/iccids/3`. */
  pointer: string;
  /** What is wrong with it, as a code. */
  code: string;
  /** The same in words, naming the field and the rule. */
  detail: string;
}

/** An RFC 9457 problem: the body of every error answer. */
export interface Problem {
  /** A URI naming the problem's kind. */
  type: string;
  /** The kind in a few words. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** The problem's code, the field to branch on (docs/api.md lists them, as does `GET /docs/errors`). */
  code: string;
  /** What happened, in words, for people. */
  detail: string;
  /** The request's id, also in `X-Request-Id`: quote it when asking for help. */
  request_id: string;
  /** The fields an input error is about (422). */
  errors?: FieldError[];
  /** Seconds to wait (429). */
  retry_after?: number;
  /** When the quota resets (`quota_exceeded`). */
  resets_at?: string;
  /** The scope the API key lacks (`insufficient_scope`). */
  required_scope?: string;
}
