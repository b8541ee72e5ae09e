import type { Usage } from "@iccid/core";
import { counted } from "@iccid/core/grammar";
import { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { maskApiKey, resolveApiKey } from "../credentials.js";
import { CredentialsError } from "../errors.js";
import { palette } from "../output/colour.js";
import { renderPairs, terminalColumns } from "../output/table.js";
import { withSession } from "../with-session.js";

const HELP = `
Says which server the CLI talks to, who is signed in there (\`iccid login\`), which API key it uses and
where that key comes from (never the whole key), and the account's plan and subscription. Costs no quota.

Examples:
  $ iccid whoami
  $ iccid whoami --json | jq .session.email
`;

const minute = (ts: string) => `${ts.slice(0, 10)} ${ts.slice(11, 16)} UTC`;

interface Identity {
  base_url: string;
  session: { account_id: string; email: string; expires_at: string } | null;
  api_key: { key: string; source: string } | null;
  /** The plan of the key's account, else the signed-in account's; null when neither may read usage. */
  account: Pick<Usage, "subscription" | "quota" | "rate_limit"> | null;
  /** Why `account` is null, in words. */
  account_unknown?: string;
}

/** The plan part of a usage report, or why it cannot be read (a key without the usage:read scope). */
async function planOf(read: () => Promise<Usage>): Promise<Pick<Identity, "account" | "account_unknown">> {
  try {
    const { subscription, quota, rate_limit } = await read();
    return { account: { subscription, quota, rate_limit } };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "insufficient_scope") return { account: null, account_unknown: "the API key lacks the usage:read scope" };
    throw error;
  }
}

async function identify(ctx: CommandContext): Promise<Identity> {
  const base_url = await ctx.baseUrl();
  const given = await ctx.apiKey();
  // A key that is given is checked as every command checks it: a mistyped one is an error, not "none".
  const key = given && resolveApiKey(ctx.globals(), ctx.term.env, await ctx.config());
  const session = (await ctx.signedIn()) ? await withSession(ctx, (client) => client.session.current()) : undefined;
  if (!key && !session) {
    throw new CredentialsError(`neither signed in to ${base_url} nor given an API key: run \`iccid login\`, or pass --api-key or set ICCID_API_KEY`);
  }
  const plan = key
    ? await planOf(async () => (await ctx.apiClient()).usage.get())
    : await planOf(() => withSession(ctx, (client) => client.usage.forSession()));
  return {
    base_url,
    session: session ? { account_id: session.account.id, email: session.account.email, expires_at: session.expires_at } : null,
    api_key: key ? { key: maskApiKey(key.value), source: key.source } : null,
    ...plan,
  };
}

export function whoamiCommand(ctx: CommandContext): Command {
  return new Command("whoami")
    .description("show the server, the signed-in account, the API key in use (masked) and the plan")
    .option("--json", "print it as JSON")
    .addHelpText("after", ctx.helpFooter(HELP))
    .action(async (options: { json?: boolean }) => {
      const who = await identify(ctx);
      if (options.json) return void ctx.term.stdout.write(`${JSON.stringify(who, null, 2)}\n`);
      const paint = palette(ctx.term.stdoutColor);
      const a = who.account;
      const pairs: Array<[string, string]> = [
        ["Server", who.base_url],
        ["Signed in", who.session ? `${who.session.email} (${who.session.account_id}), session until ${minute(who.session.expires_at)}` : "no (`iccid login`)"],
        ["API key", who.api_key ? `${who.api_key.key} from ${who.api_key.source}` : "none"],
        ["Plan", a ? `${a.subscription.plan}, ${a.subscription.status}: ${counted(a.rate_limit.limit, "request")} per ${a.rate_limit.window_seconds} s, ${counted(a.quota.limit, "lookup")} a period` : `unknown: ${who.account_unknown}`],
      ];
      if (a) pairs.push(["Quota", `${counted(a.quota.used, "lookup")} used of ${counted(a.quota.limit, "lookup")} this period, until ${minute(a.quota.resets_at)}`]);
      ctx.term.stdout.write(renderPairs(pairs, paint, terminalColumns(ctx.term.stdout, ctx.term.env)));
    });
}
