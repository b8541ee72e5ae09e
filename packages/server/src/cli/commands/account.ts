import { Command, Option } from "commander";
import { Accounts } from "../../services/accounts.js";
import { ApiKeys } from "../../services/api-keys.js";
import { DEFAULT_PLAN } from "../../settings.js";
import { rfc3339, systemClock } from "../../time.js";
import { chosenPassword } from "../input.js";
import { printListing } from "../listing.js";
import { operatorOrigin } from "../operator-origin.js";
import { withStore } from "../store-access.js";
import { describePlan } from "./plan.js";

const STATUSES = ["active", "canceled", "past_due"];

export function accountCommand(): Command {
  const account = new Command("account").description("manage accounts");
  account
    .command("create")
    .description("create an account with an active subscription; prints its id")
    .requiredOption("--email <email>", "sign-in email")
    .option("--password-stdin", "read the password from standard input (else one is generated and shown)")
    .option("--plan <name>", "plan", DEFAULT_PLAN.name)
    .action(async (opts: { email: string; passwordStdin?: boolean; plan: string }, command: Command) => {
      const { password, generated } = chosenPassword(opts.passwordStdin);
      const created = await withStore(command, (store) => new Accounts(store, systemClock).create({ email: opts.email, password, plan: opts.plan }, operatorOrigin()));
      process.stdout.write(`${created.id}\n`);
      if (generated) process.stderr.write(`generated password (shown once): ${password}\n`);
    });
  account
    .command("plan <plan>")
    .description("move an account to another plan (`plan list` shows them); usage so far and the period stay")
    .requiredOption("--email <email>", "account email")
    .action(async (planName: string, opts: { email: string }, command: Command) => {
      const plan = await withStore(command, (store) => new Accounts(store, systemClock).changePlan(opts.email, planName, operatorOrigin()));
      process.stderr.write(`${opts.email}: plan ${describePlan(plan)}\n`);
    });
  account
    .command("password")
    .description(
      "set a new password, end the account's sessions and lift its sign-in lockout; without --password-stdin one is " +
        "generated and printed once on standard output (the status goes to standard error)",
    )
    .requiredOption("--email <email>", "account email")
    .option("--password-stdin", "read the new password from standard input")
    .option("--revoke-keys", "revoke the account's API keys too (a reset leaves them working otherwise)")
    .action(async (opts: { email: string; passwordStdin?: boolean; revokeKeys?: boolean }, command: Command) => {
      const { password, generated } = chosenPassword(opts.passwordStdin);
      const revoked = await withStore(command, async (store) => {
        const origin = operatorOrigin();
        const account = await new Accounts(store, systemClock).resetPassword(opts.email, password, origin);
        return opts.revokeKeys ? new ApiKeys(store, systemClock).revokeAll(account.id, origin) : undefined;
      });
      // The data (a generated password) alone on stdout, so that PW=$(iccid-server account password …) holds it.
      if (generated) process.stdout.write(`${password}\n`);
      const keys = revoked === undefined ? "API keys kept" : `${revoked} API key${revoked === 1 ? "" : "s"} revoked`;
      process.stderr.write(`${opts.email}: password changed, sessions ended, sign-in lockout lifted, ${keys}\n`);
    });
  account
    .command("subscription")
    .description("set an account's subscription status")
    .requiredOption("--email <email>", "account email")
    .addOption(new Option("--status <status>", "new status").choices(STATUSES).makeOptionMandatory())
    .action(async (opts: { email: string; status: "active" | "canceled" | "past_due" }, command: Command) => {
      await withStore(command, (store) => new Accounts(store, systemClock).setStatus(opts.email, opts.status, operatorOrigin()));
      process.stderr.write(`${opts.email}: ${opts.status}\n`);
    });
  account
    .command("list")
    .description("list accounts")
    .option("--json", "JSON output")
    .action(async (opts: { json?: boolean }, command: Command) => {
      const rows = await withStore(command, (store) => store.listAccounts());
      const view = rows.map((a) => ({ id: a.id, email: a.email, status: a.subscription.status, plan: a.subscription.plan, created_at: rfc3339(a.created_at) }));
      if (opts.json) process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      else printListing(["ID", "EMAIL", "STATUS", "PLAN", "CREATED"], view.map((a) => [a.id, a.email, a.status, a.plan, a.created_at]));
    });
  return account;
}
