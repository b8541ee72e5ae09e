import type { Plan } from "./store/store.js";

/** What an operator can tune; defaults are documented in docs/api.md. */
export interface ServerSettings {
  /** Largest request body, in bytes (413 past it). */
  bodyLimitBytes: number;
  /** Trust X-Forwarded-* from a reverse proxy (for `Secure` cookies and client IPs). */
  trustProxy: boolean;
  /**
   * With `trustProxy`: how many proxies in front of the server append to X-Forwarded-For. The client
   * address is the entry that many from the right (what the outermost trusted proxy saw); entries left of
   * it were written by the client and are ignored.
   */
  proxyHops: number;
  /** A session ends after this long unused… */
  sessionIdleMs: number;
  /** …and after this long in any case. */
  sessionMaxMs: number;
  /** Failed logins allowed per email and per client IP within `loginWindowSeconds`. */
  loginAttemptsPerEmail: number;
  loginAttemptsPerIp: number;
  loginWindowSeconds: number;
  /** Failed sign-ins an account's audit trail records a day, at most (wrong passwords and throttled windows). */
  loginEventsPerDay: number;
  /** Usage reads allowed per account within `usageReadWindowSeconds` (both usage routes together). */
  usageReads: number;
  usageReadWindowSeconds: number;
  /** An answer not handed to the kernel in full this long after it was written: its connection is reset. */
  sendTimeoutMs: number;
  /** Past this many bytes of answers waiting in the process for clients that do not read, new requests get 503. */
  unsentLimitBytes: number;
  /** Audit events older than this many days are deleted. */
  auditRetentionDays: number;
  /** The counts of lookups with an unknown issuer are written to the store this often (and at stop). */
  unknownPrefixFlushMs: number;
}

/** The plan a new database starts with, and the one new accounts get unless told otherwise. */
export const DEFAULT_PLAN: Plan = { name: "standard", rate_limit: 600, window_seconds: 60, monthly_lookups: 100_000 };

export const DEFAULT_SETTINGS: ServerSettings = {
  bodyLimitBytes: 256 * 1024,
  trustProxy: false,
  proxyHops: 1,
  sessionIdleMs: 12 * 3_600_000,
  sessionMaxMs: 7 * 24 * 3_600_000,
  loginAttemptsPerEmail: 5,
  loginAttemptsPerIp: 50,
  loginWindowSeconds: 15 * 60,
  loginEventsPerDay: 100,
  usageReads: 60,
  usageReadWindowSeconds: 60,
  sendTimeoutMs: 30_000,
  unsentLimitBytes: 64 * 1024 * 1024,
  auditRetentionDays: 365,
  unknownPrefixFlushMs: 1_000,
};
