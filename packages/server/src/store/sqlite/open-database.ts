import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { DatabaseCorrupt } from "../errors.js";

/**
 * Opens the store's SQLite file with the store's settings, creating it owner-only (0600, in a 0700
 * directory): it holds password and key hashes, and SQLite gives its -wal and -shm files the database
 * file's permissions. An existing file keeps the mode its operator chose.
 */
export function openDatabase(path: string): Database.Database {
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, "a", 0o600));
  }
  const db = new Database(path);
  try {
    // Only a file without tables takes it: freed pages then go back to the file system (incremental_vacuum).
    db.pragma("auto_vacuum = INCREMENTAL"); // the first read of the file: a damaged header fails here
    db.pragma("journal_mode = WAL");
  } catch (error) {
    db.close();
    const code = String((error as { code?: unknown }).code);
    throw /^SQLITE_(NOTADB|CORRUPT)/.test(code) ? new DatabaseCorrupt(path, (error as Error).message) : error;
  }
  db.pragma("synchronous = NORMAL"); // durable at each WAL checkpoint; a crash loses no committed tx in WAL
  db.pragma("busy_timeout = 0"); // lock waits happen in whenNotBusy (busy.ts), off the event loop
  db.pragma("foreign_keys = ON");
  return db;
}
