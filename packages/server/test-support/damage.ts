import { closeSync, openSync, writeSync } from "node:fs";
import Database from "better-sqlite3";

/**
 * Overwrites the first page of `table`'s b-tree in the (closed, checkpointed) SQLite file at `path` with
 * bytes no page holds: what a torn write or a bad disk sector leaves.
 */
export function damageTablePage(path: string, table: string): void {
  const db = new Database(path, { readonly: true });
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) as { rootpage: number };
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  db.close();
  const fd = openSync(path, "r+");
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
