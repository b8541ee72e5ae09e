import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import { fieldIssues, WIRE_PARSE } from "../domain/schema-issues.js";
import type { Store } from "../store/store.js";
import { TABLE_NAMES, type DumpRow } from "../store/tables.js";

const DumpLine = z.strictObject({
  table: z.enum(TABLE_NAMES as [DumpRow["table"], ...DumpRow["table"][]]),
  row: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

/** Writes every row as one JSON line; returns how many. */
export async function exportRows(store: Store, file?: string): Promise<number> {
  const out = file ? createWriteStream(file, { mode: 0o600 }) : process.stdout;
  let count = 0;
  for await (const row of store.dump()) {
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, "drain");
    count++;
  }
  if (out !== process.stdout) {
    out.end();
    await finished(out);
  }
  return count;
}

async function* readDump(input: Readable): AsyncIterable<DumpRow> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${n}: not JSON`);
    }
    const parsed = DumpLine.safeParse(value, WIRE_PARSE);
    if (!parsed.success) {
      const [first] = fieldIssues(parsed.error.issues);
      throw new Error(`line ${n}: ${first?.field.join(".") || "row"}: ${first?.detail}`);
    }
    yield parsed.data;
  }
}

/** Loads an export into an empty store, all or nothing. */
export async function importRows(store: Store, input: Readable): Promise<number> {
  if ((await store.countAccounts()) > 0) throw new Error("the target database already has accounts; import needs an empty one");
  return store.restore(readDump(input));
}
