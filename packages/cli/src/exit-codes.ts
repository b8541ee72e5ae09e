/** The documented exit codes of the `iccid` command (docs/api.md, "The `iccid` command"). Scripts rely on them. */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  /** Some rows of a batch (or of a multi-ICCID lookup, or validate) failed; the others were written. */
  rowsFailed: 3,
  /** 401/403: missing, malformed, unknown, revoked or expired key; a key without the scope; no session; no active subscription. */
  auth: 4,
  /** 429: rate limited or monthly quota used up. */
  limited: 5,
  /** Ctrl-C: 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
