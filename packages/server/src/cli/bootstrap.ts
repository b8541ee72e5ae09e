import { randomBase62 } from "../auth/secrets.js";
import { EmailTaken } from "../domain/refusals.js";
import { Accounts } from "../services/accounts.js";
import { ApiKeys } from "../services/api-keys.js";
import type { Plan, Store } from "../store/store.js";
import type { Clock } from "../time.js";

export interface OwnerCredentials {
  email: string;
  password: string;
  apiKey: string;
}

/**
 * First start on an empty database: one owner account with an active subscription on the default plan and
 * one API key, so a self-hoster can make a request at once. Returns the credentials to print once, or
 * undefined when accounts already exist.
 */
export async function bootstrapOwner(store: Store, clock: Clock, plan: Plan, email: string): Promise<OwnerCredentials | undefined> {
  if ((await store.countAccounts()) > 0) return undefined;
  const password = randomBase62(20);
  let account;
  try {
    account = await new Accounts(store, clock).create({ email, password, plan: plan.name });
  } catch (error) {
    // Another instance started on the same empty database at the same moment and created the owner.
    if (error instanceof EmailTaken) return undefined;
    throw error;
  }
  const { key } = await new ApiKeys(store, clock).create(account.id, "bootstrap");
  return { email: account.email, password, apiKey: key };
}
