import type { Account, AccountStore, Payer } from "../store/store.js";
import type { PayingAccount } from "./usage-report.js";

/**
 * The id the account page's lookups are counted under in usage, in place of a key's: no key has it (key
 * ids are `key_` and random characters), so usage grouped by key shows the page apart from every key.
 */
export const WEB_PAGE_KEY_ID = "web_page";
/** How usage grouped by key names the account page's lookups. */
export const WEB_PAGE_USAGE_NAME = "Web page";

/** The account with its subscription and plan, for what a web session does on its behalf. */
export async function payingAccount(store: Pick<AccountStore, "getSubscription" | "getPlan">, account: Account): Promise<PayingAccount> {
  const subscription = await store.getSubscription(account.id);
  const plan = subscription && (await store.getPlan(subscription.plan));
  // Every account is created with a subscription on an existing plan; a gap is a broken store (500).
  if (!subscription || !plan) throw new Error("account without a subscription or plan");
  return { account, subscription, plan };
}

/** Who the account page's lookups are charged to: the signed-in account, counted under WEB_PAGE_KEY_ID. */
export async function webPagePayer(store: Pick<AccountStore, "getSubscription" | "getPlan">, account: Account): Promise<Payer> {
  return { ...(await payingAccount(store, account)), key: { id: WEB_PAGE_KEY_ID } };
}
