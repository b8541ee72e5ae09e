import { EMAIL_PATTERN, type SubscriptionStatus } from "@iccid/core";
import { hashPassword } from "../auth/passwords.js";
import { newId } from "../auth/secrets.js";
import type { Account, Store } from "../store/store.js";
import type { Clock } from "../time.js";

export class AccountExists extends Error {
  constructor(email: string) {
    super(`an account with email ${email} already exists`);
    this.name = "AccountExists";
  }
}

/** Accounts and their subscriptions (operator commands and the first-start bootstrap). */
export class Accounts {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async create(input: { email: string; password: string; plan: string; status?: SubscriptionStatus }): Promise<Account> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(email) || email.length > 254) throw new Error(`not an email address: ${input.email}`);
    if (await this.store.findAccountByEmail(email)) throw new AccountExists(email);
    if (!(await this.store.getPlan(input.plan))) throw new Error(`unknown plan ${input.plan}`);
    const now = this.clock.now();
    const account: Account = { id: newId("acc"), email, password_hash: await hashPassword(input.password), created_at: now };
    await this.store.createAccount({
      account,
      subscription: { account_id: account.id, status: input.status ?? "active", plan: input.plan, period_anchor: now },
    });
    return account;
  }

  async byEmail(email: string): Promise<Account> {
    const account = await this.store.findAccountByEmail(email.trim().toLowerCase());
    if (!account) throw new Error(`no account with email ${email}`);
    return account;
  }
}
