import type Database from "better-sqlite3";
import { restoreSql, TABLE_NAMES, TABLES, type DumpRow } from "../tables.js";
import { whenNotBusy } from "./busy.js";

/** Every row of every table, in foreign-key order. */
export async function* dumpRows(db: Database.Database): AsyncIterable<DumpRow> {
  for (const table of TABLE_NAMES) {
    const columns = TABLES[table].join(", ");
    for (const row of db.prepare(`SELECT ${columns} FROM ${table}`).iterate()) {
      yield { table, row: row as DumpRow["row"] };
    }
  }
}

/** Loads dumped rows in one transaction, all or nothing. */
export async function restoreRows(db: Database.Database, rows: AsyncIterable<DumpRow>): Promise<number> {
  // better-sqlite3 transactions cannot span awaits, so this one is opened by hand; the import command
  // is the only user of the connection while it runs.
  await whenNotBusy(() => db.exec("BEGIN IMMEDIATE"), 5_000);
  const inserts = new Map<string, Database.Statement>();
  let count = 0;
  try {
    for await (const { table, row } of rows) {
      let insert = inserts.get(table);
      if (!insert) inserts.set(table, (insert = db.prepare(restoreSql(table, () => "?"))));
      insert.run(...TABLES[table].map((c) => row[c] ?? null));
      count++;
    }
    db.exec("COMMIT");
    return count;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
