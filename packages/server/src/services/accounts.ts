import { EMAIL_PATTERN, type SubscriptionStatus } from "@iccid/core";
import { hashPassword } from "../auth/passwords.js";
import { newId } from "../auth/secrets.js";
import { EmailTaken, InvalidInput, NotFound } from "../domain/refusals.js";
import { SYSTEM_ORIGIN, type AuditOrigin } from "../domain/audit-origin.js";
import type { Account, AccountStore, AuditStore, Plan } from "../store/store.js";
import type { Clock } from "../time.js";
import { AuditTrail } from "./audit-trail.js";

const MIN_PASSWORD_LENGTH = 8;

/** Accounts and their subscriptions (operator commands and the first-start bootstrap). */
export class Accounts {
  constructor(
    private readonly store: AccountStore & AuditStore,
    private readonly clock: Clock,
    private readonly audit = new AuditTrail(store, clock),
  ) {}

  /** Opens an account with its subscription, the first event on its audit trail. */
  async create(input: { email: string; password: string; plan: string; status?: SubscriptionStatus }, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<Account> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(email) || email.length > 254) {
      throw new InvalidInput([{ field: ["email"], code: "invalid_email", detail: "is not an email address" }], `not an email address: ${input.email}`);
    }
    assertPassword(input.password);
    if (await this.store.findAccountByEmail(email)) throw new EmailTaken(email);
    if (!(await this.store.getPlan(input.plan))) throw new NotFound("plan", input.plan);
    const now = this.clock.now();
    const account: Account = { id: newId("acc"), email, password_hash: await hashPassword(input.password), created_at: now };
    // Another instance may create the same email between the check above and this insert: the store then
    // refuses with EmailTaken too.
    await this.store.createAccount({
      account,
      subscription: { account_id: account.id, status: input.status ?? "active", plan: input.plan, period_anchor: now },
    });
    await this.audit.record(account.id, "account.created", origin);
    return account;
  }

  async byEmail(email: string): Promise<Account> {
    const account = await this.store.findAccountByEmail(email.trim().toLowerCase());
    if (!account) throw new NotFound("account", email);
    return account;
  }

  /** Moves the account to another existing plan; its period and usage so far stay as they are. */
  async changePlan(email: string, planName: string, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<Plan> {
    const account = await this.byEmail(email);
    const plan = await this.store.getPlan(planName);
    if (!plan) throw new NotFound("plan", planName);
    await this.store.setSubscription(account.id, { plan: plan.name });
    await this.audit.record(account.id, "plan.changed", origin);
    return plan;
  }

  /** Sets the subscription's status (active, canceled, past due). */
  async setStatus(email: string, status: SubscriptionStatus, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<void> {
    const account = await this.byEmail(email);
    await this.store.setSubscription(account.id, { status });
    await this.audit.record(account.id, "subscription.changed", origin);
  }

  /** Sets a new password and signs the account out everywhere. */
  /** Sets a new password and ends the account's sessions; answers the account. */
  async resetPassword(email: string, password: string, origin: AuditOrigin = SYSTEM_ORIGIN): Promise<Account> {
    assertPassword(password);
    const account = await this.byEmail(email);
    await this.store.setPasswordHash(account.id, await hashPassword(password));
    await this.audit.record(account.id, "password.changed", origin);
    return account;
  }
}

/** The one password rule, for every account: refuses with InvalidInput naming the field. */
export function assertPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new InvalidInput(
      [{ field: ["password"], code: "too_short", detail: `must be at least ${MIN_PASSWORD_LENGTH} characters` }],
      `the password must be at least ${MIN_PASSWORD_LENGTH} characters`,
    );
  }
}
