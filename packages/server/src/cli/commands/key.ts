import { Command, Option } from "commander";
import { CreateKeyRequest, KEY_SCOPES, parseDuration, type KeyRecord, type KeyScope } from "@iccid/core";
import { NotFound } from "../../domain/refusals.js";
import { WIRE_PARSE } from "../../domain/schema-issues.js";
import { Accounts } from "../../services/accounts.js";
import { ApiKeys } from "../../services/api-keys.js";
import { systemClock } from "../../time.js";
import { UsageError } from "../input.js";
import { printListing } from "../listing.js";
import { operatorOrigin } from "../operator-origin.js";
import { withStore } from "../store-access.js";

/** `--expires`: a duration from now (90d) or an RFC 3339 time, handed to the service as RFC 3339. */
function expiresAt(value: string): string {
  const after = parseDuration(value);
  return after === undefined ? value : new Date(systemClock.now() + after).toISOString();
}

export function keyCommand(): Command {
  const key = new Command("key").description("manage API keys");
  key
    .command("create")
    .description("create an API key and print it (shown once)")
    .requiredOption("--email <email>", "account email")
    .option("--name <name>", "a name to recognise the key by")
    .addOption(
      new Option("--scope <scope...>", "what the key may do (repeat for several; default: every scope)").choices([...KEY_SCOPES]),
    )
    .option("--expires <when>", "when the key stops working: a duration (90d, 24h) or an RFC 3339 time; default never")
    .action(async (opts: { email: string; name?: string; scope?: KeyScope[]; expires?: string }, command: Command) => {
      // The name as the API takes it (POST /api/v1/keys): trimmed, 1 to 100 characters, no control characters.
      const name = CreateKeyRequest.shape.name.safeParse(opts.name, WIRE_PARSE);
      if (!name.success) throw new UsageError(`--name ${name.error.issues[0]?.message ?? "is not a key name"}`);
      const created = await withStore(command, async (store) => {
        const owner = await new Accounts(store, systemClock).byEmail(opts.email);
        return new ApiKeys(store, systemClock).create(owner.id, name.data ?? null, {
          scopes: opts.scope && [...new Set(opts.scope)],
          expiresAt: opts.expires === undefined ? undefined : expiresAt(opts.expires),
          origin: operatorOrigin(),
        });
      });
      process.stdout.write(`${created.key}\n`);
    });
  key
    .command("list")
    .description("list an account's API keys, newest first (never the keys themselves)")
    .requiredOption("--email <email>", "account email")
    .option("--json", "JSON output, one array, as GET /api/v1/keys answers")
    .action(async (opts: { email: string; json?: boolean }, command: Command) => {
      const keys = await withStore(command, async (store) => {
        const owner = await new Accounts(store, systemClock).byEmail(opts.email);
        return new ApiKeys(store, systemClock).list(owner.id);
      });
      if (opts.json) process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
      else printListing(["ID", "NAME", "STATE", "SCOPES", "KEY", "LAST USED", "EXPIRES", "CREATED"], keys.map(keyRow));
    });
  key
    .command("revoke")
    .description("revoke an API key by its id (`key list` shows them): refused by every instance within 1 s")
    .argument("<id>", "the key's id, key_…")
    .action(async (id: string, _opts: unknown, command: Command) => {
      const outcome = await withStore(command, async (store) => {
        const found = await store.findKey(id);
        if (!found) throw new NotFound("api_key", id);
        return new ApiKeys(store, systemClock).revoke(found.account_id, id, operatorOrigin());
      });
      process.stderr.write(`${id}: ${outcome === "revoked" ? "revoked" : "already revoked"}\n`);
    });
  return key;
}

/**
 * A key's row: which it is and whether it still works first (what an 80-column terminal keeps), then what
 * it may do, what it shows of itself and its dates; --json has the time of a revocation.
 */
function keyRow(k: KeyRecord): string[] {
  const state = k.revoked_at !== null ? "revoked" : k.expires_at !== null && Date.parse(k.expires_at) <= systemClock.now() ? "expired" : "active";
  return [k.id, k.name ?? "-", state, k.scopes.join(","), `${k.prefix}…${k.last4}`, k.last_used_at ?? "never", k.expires_at ?? "never", k.created_at];
}
