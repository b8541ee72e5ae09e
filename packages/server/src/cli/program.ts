import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { pino } from "pino";
import { createApp, SERVER_VERSION } from "../app.js";
import { loadDecoder } from "../decode/load.js";
import { listen } from "../http-server.js";
import { randomBase62 } from "../auth/secrets.js";
import { Accounts } from "../services/accounts.js";
import { ApiKeys } from "../services/api-keys.js";
import { DEFAULT_PLAN } from "../settings.js";
import { openStore } from "../store/open.js";
import type { Store } from "../store/store.js";
import { connectRedis, redisLimiters, redisReady } from "../limits/redis-limiters.js";
import { exportRows, importRows } from "./dump.js";
import { rfc3339, systemClock } from "../time.js";
import { bootstrapOwner } from "./bootstrap.js";
import { parseIssuerCsv } from "./issuer-csv.js";
import { resolveSettings, SettingsError } from "./settings.js";

const STATUSES = ["active", "canceled", "past_due"];

/** Opens the configured database, migrated and (unless restoring into it) with the default plan present. */
async function openMigrated(flags: Record<string, unknown>, { seedPlan = true } = {}): Promise<Store> {
  const store = openStore(resolveSettings(flags).db);
  await store.migrate();
  if (seedPlan && !(await store.getPlan(DEFAULT_PLAN.name))) await store.upsertPlan(DEFAULT_PLAN);
  return store;
}

async function withStore<T>(command: Command, work: (store: Store) => Promise<T>, options?: { seedPlan?: boolean }): Promise<T> {
  const store = await openMigrated(command.optsWithGlobals(), options);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function readStdin(): string {
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0 (got "${value}")`);
  return n;
};

export function buildProgram(): Command {
  const program = new Command("iccid-server")
    .description("Self-hosted ICCID Lookup server")
    .version(SERVER_VERSION)
    .option("--db <path|url>", "SQLite file or postgres:// URL (env ICCID_DB, default ./data/iccid.db)")
    .showHelpAfterError()
    .exitOverride(); // set before the subcommands so they inherit it: main() picks the exit codes

  program
    .command("start")
    .description("migrate, then serve; SIGTERM/SIGINT stop gracefully")
    .option("--port <n>", "port (env ICCID_PORT, default 8080)")
    .option("--host <host>", "address to bind (env ICCID_HOST, default 127.0.0.1)")
    .option("--trust-proxy", "trust X-Forwarded-* from a reverse proxy (env ICCID_TRUST_PROXY)")
    .option("--redis <url>", "share rate limits across instances through Redis (env ICCID_REDIS_URL)")
    .addOption(new Option("--log-level <level>", "env ICCID_LOG_LEVEL, default info").choices(["fatal", "error", "warn", "info", "debug", "silent"]))
    .action(async (_opts, command: Command) => {
      const settings = resolveSettings(command.optsWithGlobals());
      const logger = pino({ level: settings.logLevel });
      const store = await openMigrated(command.optsWithGlobals());
      const redis = settings.redis ? connectRedis(settings.redis) : undefined;
      redis?.on("error", (error: Error & { code?: string }) => logger.warn({ err: { code: error.code } }, "redis unavailable"));
      if (redis && !(await redisReady(redis))) logger.warn("redis not ready: rate limits are per instance until it is");
      const plan = (await store.getPlan(DEFAULT_PLAN.name))!;
      const owner = await bootstrapOwner(store, systemClock, plan, process.env.ICCID_OWNER_EMAIL ?? "owner@localhost");
      const decoder = await loadDecoder(store);
      const iccidApp = createApp({
        store,
        logger,
        decoder,
        settings: { trustProxy: settings.trustProxy },
        ...(redis ? { limiterFactory: redisLimiters(redis) } : {}),
      });
      const running = await listen(iccidApp, { host: settings.host, port: settings.port, store, logger });
      const stop = (signal: string) => {
        logger.info({ signal }, "stopping");
        running.close().then(
          async () => {
            await redis?.quit().catch(() => {});
            process.exit(0);
          },
          () => process.exit(1),
        );
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
      if (owner) {
        // Shown once, on the terminal, never through the logger: these are the only copies.
        process.stderr.write(
          [
            "",
            "First start: created the owner account. Save these now; they are not shown again.",
            `  email:    ${owner.email}`,
            `  password: ${owner.password}`,
            `  API key:  ${owner.apiKey}`,
            "",
            `Try it:  curl -s ${running.url}/api/v1/iccid/lookup -H "Authorization: Bearer ${owner.apiKey}" \\`,
            `           -H "Content-Type: application/json" -d '{"iccid":"89441000000000000018"}'`,
            "",
          ].join("\n"),
        );
      }
      // Announced only once a stop is handled gracefully: whoever waits for this line may signal at once.
      logger.info({ url: running.url, db: settings.db, data_version: decoder.dataVersion }, "listening");
    });

  program
    .command("migrate")
    .description("create or upgrade the database schema")
    .action(async (_opts, command: Command) => {
      await withStore(command, async () => {});
      process.stdout.write("database is up to date\n");
    });

  const account = program.command("account").description("manage accounts");
  account
    .command("create")
    .description("create an account with an active subscription; prints its id")
    .requiredOption("--email <email>", "sign-in email")
    .option("--password-stdin", "read the password from standard input (else one is generated and shown)")
    .option("--plan <name>", "plan", DEFAULT_PLAN.name)
    .action(async (opts: { email: string; passwordStdin?: boolean; plan: string }, command: Command) => {
      const password = opts.passwordStdin ? readStdin() : randomBase62(20);
      if (password.length < 8) throw new Error("the password must be at least 8 characters");
      const created = await withStore(command, (store) => new Accounts(store, systemClock).create({ email: opts.email, password, plan: opts.plan }));
      process.stdout.write(`${created.id}\n`);
      if (!opts.passwordStdin) process.stderr.write(`generated password (shown once): ${password}\n`);
    });
  account
    .command("subscription")
    .description("set an account's subscription status")
    .requiredOption("--email <email>", "account email")
    .addOption(new Option("--status <status>", "new status").choices(STATUSES).makeOptionMandatory())
    .action(async (opts: { email: string; status: "active" | "canceled" | "past_due" }, command: Command) => {
      await withStore(command, async (store) => {
        const found = await new Accounts(store, systemClock).byEmail(opts.email);
        await store.setSubscription(found.id, { status: opts.status });
      });
      process.stdout.write(`${opts.email}: ${opts.status}\n`);
    });
  account
    .command("list")
    .description("list accounts")
    .option("--json", "JSON output")
    .action(async (opts: { json?: boolean }, command: Command) => {
      const rows = await withStore(command, (store) => store.listAccounts());
      const view = rows.map((a) => ({ id: a.id, email: a.email, status: a.subscription.status, plan: a.subscription.plan, created_at: rfc3339(a.created_at) }));
      if (opts.json) process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      else for (const a of view) process.stdout.write(`${a.id}\t${a.email}\t${a.status}\t${a.plan}\t${a.created_at}\n`);
    });

  program
    .command("plan")
    .description("manage plans")
    .command("set <name>")
    .description("create or change a plan")
    .requiredOption("--rate-limit <n>", "requests per window", positiveInt("--rate-limit"))
    .requiredOption("--window <seconds>", "rate-limit window in seconds", positiveInt("--window"))
    .requiredOption("--monthly-lookups <n>", "lookups per monthly period", positiveInt("--monthly-lookups"))
    .action(async (name: string, opts: { rateLimit: number; window: number; monthlyLookups: number }, command: Command) => {
      if (opts.rateLimit < 1 || opts.window < 1) throw new Error("--rate-limit and --window must be at least 1");
      await withStore(command, (store) =>
        store.upsertPlan({ name, rate_limit: opts.rateLimit, window_seconds: opts.window, monthly_lookups: opts.monthlyLookups }),
      );
      process.stdout.write(`plan ${name}: ${opts.rateLimit} requests / ${opts.window} s, ${opts.monthlyLookups} lookups / month\n`);
    });

  program
    .command("key")
    .description("manage API keys")
    .command("create")
    .description("create an API key and print it (shown once)")
    .requiredOption("--email <email>", "account email")
    .option("--name <name>", "a name to recognise the key by")
    .action(async (opts: { email: string; name?: string }, command: Command) => {
      const created = await withStore(command, async (store) => {
        const owner = await new Accounts(store, systemClock).byEmail(opts.email);
        return new ApiKeys(store, systemClock).create(owner.id, opts.name ?? null);
      });
      process.stdout.write(`${created.key}\n`);
    });

  program
    .command("issuers")
    .description("manage the operator's own issuer prefixes")
    .command("import <file>")
    .description("import prefix,name[,country_iso2] rows (they win over the ITU list at equal length)")
    .option("--replace", "replace all imported prefixes instead of adding to them")
    .action(async (file: string, opts: { replace?: boolean }, command: Command) => {
      const prefixes = parseIssuerCsv(readFileSync(file, "utf8"));
      await withStore(command, (store) => (opts.replace ? store.replaceCustomPrefixes(prefixes) : store.upsertCustomPrefixes(prefixes)));
      process.stdout.write(`imported ${prefixes.length} prefixes; restart the server to use them\n`);
    });

  program
    .command("export")
    .description("write every row of the database as JSON lines (to move between SQLite and PostgreSQL)")
    .option("--out <file>", "write to a file instead of standard output")
    .action(async (opts: { out?: string }, command: Command) => {
      const count = await withStore(command, (store) => exportRows(store, opts.out));
      process.stderr.write(`exported ${count} rows\n`);
    });

  program
    .command("import <file>")
    .description("load an export into an empty database (use - for standard input)")
    .action(async (file: string, _opts, command: Command) => {
      const count = await withStore(command, (store) => importRows(store, file), { seedPlan: false });
      process.stdout.write(`imported ${count} rows\n`);
    });

  return program;
}

/** Runs the command; failures print one line (never a stack) and exit 1, usage errors exit 2. */
export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (e.code?.startsWith("commander.")) process.exit(e.code === "commander.helpDisplayed" || e.code === "commander.version" ? 0 : 2);
    process.stderr.write(`iccid-server: ${e.message ?? String(error)}\n`);
    process.exit(error instanceof SettingsError ? 2 : 1);
  }
}
