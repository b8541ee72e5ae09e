import type { IccidClient } from "@iccid/sdk";
import { updateConfig } from "./config.js";
import type { CommandContext } from "./command-context.js";

/**
 * The SDK keeps the session cookie in memory; the CLI keeps it in the config file between invocations.
 * Called after every session call, since the server may slide the session's expiry and re-issue it.
 */
export async function saveSession(ctx: CommandContext, client: IccidClient, email?: string): Promise<void> {
  const token = client.session.token;
  const config = await ctx.config();
  if (token === config.session?.cookie && email === undefined) return;
  const baseUrl = await ctx.baseUrl();
  // No session with this server: leave a session with another server alone.
  if (token === undefined && config.session?.base_url !== baseUrl) return;
  await updateConfig(ctx.term.env, (current) => {
    const { session, ...rest } = current;
    if (token === undefined) return rest;
    const keptEmail = email ?? (session?.base_url === baseUrl ? session.email : undefined);
    return { ...rest, session: { cookie: token, base_url: baseUrl, ...(keptEmail ? { email: keptEmail } : {}) } };
  });
}
