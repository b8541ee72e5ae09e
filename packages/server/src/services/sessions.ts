import { randomBytes } from "node:crypto";
import type { Session as SessionBody } from "@iccid/core";
import { decoyPasswordHash, verifyPassword } from "../auth/passwords.js";
import { sha256Hex } from "../auth/secrets.js";
import { InvalidCredentials } from "../domain/refusals.js";
import type { LoginThrottle } from "../limits/rate-limit.js";
import type { Account, AccountStore, AuditStore, CredentialStore, SessionRow } from "../store/store.js";
import { rfc3339, type Clock } from "../time.js";
import { AuditTrail } from "./audit-trail.js";

// A session's last_seen_at moves at most once a minute: sliding expiry without a write per request.
const TOUCH_INTERVAL_MS = 60_000;

export interface ActiveSession {
  session: SessionRow;
  account: Account;
  /** The hash of the cookie secret: the session's key in the store. */
  hash: string;
}

/**
 * What the sign-in throttle counts an email's attempts under: for an account, its email with a fingerprint
 * of its current password hash. Setting a new password (`iccid-server account password`, in whatever
 * process) so starts a fresh count, which lifts a lockout on every throttle, in memory or in Redis, with
 * no message to the running servers. An unknown email is counted by itself, and locks out the same way.
 */
function signInThrottleKey(email: string, account: Account | undefined): string {
  return account ? `${email}#${sha256Hex(account.password_hash).slice(0, 16)}` : email;
}

/** A session's id in the audit trail: derived from the stored hash, so it reveals nothing of the cookie. */
export function sessionId(hash: string): string {
  return `ses_${sha256Hex(hash).slice(0, 20)}`;
}

/** Web sessions: a random secret in the cookie, only its SHA-256 in the store; sliding and absolute expiry. */
export class Sessions {
  constructor(
    private readonly store: CredentialStore & AccountStore & AuditStore,
    private readonly clock: Clock,
    private readonly throttle: LoginThrottle,
    private readonly idleMs: number,
    private readonly maxMs: number,
    private readonly audit = new AuditTrail(store, clock),
  ) {}

  /**
   * Verifies the credentials; returns the cookie secret and the session, or refuses (throttled, wrong).
   * The account's audit trail gets session.created, or session.failed for a wrong password, or
   * session.throttled for the attempt that used the email's throttle budget up (with the attempts
   * counted), failures within the throttle's daily bound per account.
   */
  async login(email: string, password: string, ip: string, userAgent: string | null = null): Promise<{ secret: string; active: ActiveSession }> {
    const account = await this.store.findAccountByEmail(email);
    const throttleKey = signInThrottleKey(email, account);
    const origin = { actor: { type: "session" as const }, ip, userAgent };
    const throttled = await this.throttle.attempt(throttleKey, ip);
    if (throttled) {
      // An unknown email has no trail to write on.
      if (account && throttled.first && (await this.throttle.mayRecord(account.id))) {
        await this.audit.record(account.id, "session.throttled", origin, undefined, throttled.attempts);
      }
      throw throttled.refusal;
    }
    // Unknown emails cost a full scrypt too, so timing does not tell which emails exist.
    const ok = await verifyPassword(password, account?.password_hash ?? (await decoyPasswordHash()));
    if (account && !ok && (await this.throttle.mayRecord(account.id))) await this.audit.record(account.id, "session.failed", origin);
    if (!account || !ok) throw new InvalidCredentials();
    await this.throttle.succeeded(throttleKey, ip);
    const secret = randomBytes(32).toString("base64url");
    const now = this.clock.now();
    const session: SessionRow = {
      hash: sha256Hex(secret),
      account_id: account.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + this.maxMs,
    };
    await this.store.insertSession(session);
    // Expired sessions would otherwise stay until someone presented them; a sign-in sweeps them away.
    await this.store.deleteExpiredSessions(now, this.idleMs);
    await this.audit.record(account.id, "session.created", { ...origin, actor: { type: "session", id: sessionId(session.hash) } });
    return { secret, active: { session, account, hash: session.hash } };
  }

  /** The live session for a cookie secret, sliding its idle expiry; undefined when absent or expired. */
  async resolve(secret: string | undefined): Promise<ActiveSession | undefined> {
    if (!secret || secret.length > 100) return undefined;
    const hash = sha256Hex(secret);
    const found = await this.store.findSession(hash);
    if (!found) return undefined;
    const now = this.clock.now();
    if (now >= found.session.expires_at || now >= found.session.last_seen_at + this.idleMs) {
      await this.store.deleteSession(hash);
      return undefined;
    }
    if (now - found.session.last_seen_at >= TOUCH_INTERVAL_MS) {
      await this.store.touchSession(hash, now);
      found.session.last_seen_at = now;
    }
    return { ...found, hash };
  }

  async logout(active: ActiveSession, origin: { ip: string; userAgent: string | null }): Promise<void> {
    await this.store.deleteSession(active.hash);
    await this.audit.record(active.account.id, "session.ended", { actor: { type: "session", id: sessionId(active.hash) }, ...origin });
  }

  /** Ends every session of the account, this one included: wherever it is signed in, it is signed out. */
  async logoutEverywhere(active: ActiveSession, origin: { ip: string; userAgent: string | null }): Promise<void> {
    await this.store.deleteSessions(active.account.id);
    await this.audit.record(active.account.id, "sessions.ended", { actor: { type: "session", id: sessionId(active.hash) }, ...origin });
  }

  /** When the session ends unless used again: the earlier of the idle and absolute expiries (epoch ms). */
  expiresAt(session: SessionRow): number {
    return Math.min(session.expires_at, session.last_seen_at + this.idleMs);
  }

  toBody({ session, account }: ActiveSession): SessionBody {
    return {
      account: { id: account.id, email: account.email },
      created_at: rfc3339(session.created_at),
      expires_at: rfc3339(this.expiresAt(session)),
    };
  }
}
