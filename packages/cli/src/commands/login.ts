import { Command } from "commander";
import type { CommandContext } from "../command-context.js";
import { configPath } from "../config.js";
import { CliError, UsageError } from "../errors.js";
import { promptHidden, promptLine, readStdin } from "../prompt.js";
import { saveSession } from "../session-store.js";
import { note } from "../terminal.js";

const LOGIN_HELP = `
Starts a web session, which the keys commands need (lookups use an API key instead). The session is
kept in the config file (mode 0600) for this server until \`iccid logout\` or until it expires.

Examples:
  $ iccid login --email you@example.com                       # asks for the password, hidden
  $ printf '%s' "$PASSWORD" | iccid login --email you@example.com --password-stdin
  $ iccid login --base-url https://iccid.example.com --email you@example.com
`;

const LOGOUT_HELP = `
Ends the web session on the server and removes it from the config file. With --all, every session of
the account ends: other browsers and machines are signed out too. API keys stay valid.

Examples:
  $ iccid logout
  $ iccid logout --all
`;

interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
}

async function credentials(ctx: CommandContext, options: LoginOptions): Promise<{ email: string; password: string }> {
  if (options.passwordStdin && !options.email) throw new UsageError("--password-stdin needs --email (stdin holds the password)");
  const email = options.email ?? (await promptLine(ctx.term, "Email: "));
  const password = options.passwordStdin ? await readStdin(ctx.term) : await promptHidden(ctx.term, "Password: ");
  if (!email) throw new UsageError("the email is empty");
  if (!password) throw new UsageError("the password is empty");
  return { email, password };
}

export function loginCommand(ctx: CommandContext): Command {
  return new Command("login")
    .description("log in to the web session that the keys commands use")
    .option("--email <email>", "account email (asked for when missing)")
    .option("--password-stdin", "read the password from stdin instead of asking")
    .addHelpText("after", ctx.helpFooter(LOGIN_HELP))
    .action(async (options: LoginOptions) => {
      const { email, password } = await credentials(ctx, options);
      const client = await ctx.sessionClient();
      const session = await client.session.login(email, password);
      if (client.session.token === undefined) throw new CliError("the server accepted the login but set no session cookie");
      await saveSession(ctx, client, session.account.email);
      note(ctx.term, `Logged in to ${client.baseUrl} as ${session.account.email} (session saved in ${configPath(ctx.term.env)}).`);
    });
}

export function logoutCommand(ctx: CommandContext): Command {
  return new Command("logout")
    .description("end the web session and forget it")
    .option("--all", "end every session of the account, wherever it is signed in")
    .addHelpText("after", ctx.helpFooter(LOGOUT_HELP))
    .action(async (opts: { all?: boolean }) => {
      const client = await ctx.sessionClient();
      if (client.session.token === undefined) {
        note(ctx.term, `Not logged in to ${client.baseUrl}.`);
        return;
      }
      const { isAuthenticationError } = await import("@iccid/sdk");
      try {
        await (opts.all ? client.session.logoutEverywhere() : client.session.logout());
      } catch (error) {
        // An expired session is as good as ended; anything else is reported, but the local copy still goes.
        if (!isAuthenticationError(error)) {
          await saveSession(ctx, client);
          throw error;
        }
      }
      await saveSession(ctx, client);
      note(ctx.term, opts.all ? `Logged out of ${client.baseUrl} everywhere: every session of the account has ended.` : `Logged out of ${client.baseUrl}.`);
    });
}
