import type { IccidClient } from "@iccid/sdk";
import type { CommandContext } from "./command-context.js";
import { CredentialsError } from "./errors.js";
import { saveSession } from "./session-store.js";

/** Runs a call with the stored session, then stores the session again (the server may have renewed it). */
export async function withSession<T>(ctx: CommandContext, call: (client: IccidClient) => Promise<T>): Promise<T> {
  const client = await ctx.sessionClient();
  if (client.session.token === undefined) {
    throw new CredentialsError(`not logged in to ${client.baseUrl}: run \`iccid login\` first`);
  }
  try {
    return await call(client);
  } finally {
    await saveSession(ctx, client);
  }
}
