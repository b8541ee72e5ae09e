import type { Command } from "commander";
import { DEFAULT_PLAN } from "../settings.js";
import { openStore } from "../store/open.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import type { Store } from "../store/store.js";
import { resolveSettings } from "./settings.js";

/**
 * Opens the configured database, migrated and (unless restoring into it) with the default plan present.
 * With `checkIntegrity` (the server's start), a SQLite file that fails SQLite's quick_check is refused
 * before anything is written to it.
 */
export async function openMigrated(flags: Record<string, unknown>, { seedPlan = true, checkIntegrity = false } = {}): Promise<Store> {
  const store = openStore(resolveSettings(flags).db);
  try {
    if (checkIntegrity && store instanceof SqliteStore) await store.checkIntegrity();
  } catch (error) {
    await store.close();
    throw error;
  }
  await store.migrate();
  if (seedPlan && !(await store.getPlan(DEFAULT_PLAN.name))) await store.upsertPlan(DEFAULT_PLAN);
  return store;
}

/** Runs one command's work against the configured database and closes it afterwards, whatever happens. */
export async function withStore<T>(command: Command, work: (store: Store) => Promise<T>, options?: { seedPlan?: boolean }): Promise<T> {
  const store = await openMigrated(command.optsWithGlobals(), options);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
