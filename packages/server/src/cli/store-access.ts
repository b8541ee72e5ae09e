import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { DEFAULT_PLAN } from "../settings.js";
import { isPostgresUrl, openStore } from "../store/open.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import type { SchemaVersions, Store } from "../store/store.js";
import { redactUrls } from "../auth/redacted-url.js";
import { resolveSettings } from "./settings.js";

interface OpenOptions {
  /**
   * May make a new SQLite file: only the commands whose work is to start a database (start, migrate, and
   * import, which loads an export into an empty one). A command that changes what a database holds (plan
   * set, account create, issuers import) refuses a path with no file, as the reads do: run in another
   * folder, it would make a database no server reads and report success.
   */
  create?: boolean;
  /** Adds the default plan when missing (not when restoring an export into the database). */
  seedPlan?: boolean;
  /** Refuses a SQLite file that fails SQLite's quick_check before anything is written to it (the server's start). */
  checkIntegrity?: boolean;
  /** Told of a migrate that applied migrations (the operator commands say it on stderr, the server logs each). */
  onMigrated?: (versions: SchemaVersions) => void;
}

/**
 * Opens the configured database, migrated and (unless restoring into it) with the default plan present.
 * A command that only reads or changes what is there refuses a SQLite path with no file, rather than
 * making an empty database where a mistyped --db points.
 */
export async function openMigrated(flags: Record<string, unknown>, { create = false, seedPlan = true, checkIntegrity = false, onMigrated = sayMigrated(flags) }: OpenOptions = {}): Promise<Store> {
  const { db, pgPooler, pgDirectUrl, pgPoolSize, queryTimeoutSeconds } = resolveSettings(flags);
  if (!create && !isPostgresUrl(db) && !existsSync(db)) {
    throw new Error(`no database at ${resolve(db)}: check --db or ICCID_DB (\`iccid-server migrate\` or \`start\` makes a new one)`);
  }
  const store = openStore(db, { pooler: pgPooler, max: pgPoolSize, queryTimeoutMs: queryTimeoutSeconds * 1000, ...(pgDirectUrl ? { directUrl: pgDirectUrl } : {}) });
  try {
    if (checkIntegrity && store instanceof SqliteStore) await store.checkIntegrity();
  } catch (error) {
    await store.close();
    throw error;
  }
  const versions = await store.migrate();
  if (versions.from < versions.to) onMigrated(versions);
  if (seedPlan && !(await store.getPlan(DEFAULT_PLAN.name))) await store.upsertPlan(DEFAULT_PLAN);
  return store;
}

/** An operator command's word of a migration, on stderr: the schema changed under the operator's hand. */
export function sayMigrated(flags: Record<string, unknown>): (versions: SchemaVersions) => void {
  return ({ from, to }) => process.stderr.write(`migrated the database at ${redactUrls(resolveSettings(flags).db)} from schema version ${from} to ${to}\n`);
}

/** Runs one command's work against the configured database and closes it afterwards, whatever happens. */
export async function withStore<T>(command: Command, work: (store: Store) => Promise<T>, options?: Omit<OpenOptions, "checkIntegrity">): Promise<T> {
  const store = await openMigrated(command.optsWithGlobals(), options);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
