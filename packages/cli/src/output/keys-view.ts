import type { KeyRecord } from "@iccid/core";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { renderTable, type TableLayout } from "./table.js";
import { tsvText } from "./tsv.js";

const COLUMNS = ["id", "name", "key", "created_at", "last_used_at", "revoked_at"];
const KEYS_LAYOUT: TableLayout = { drop: [3, 4, 2, 5], wrap: [1] };

function cells(key: KeyRecord): string[] {
  return [key.id, key.name ?? "", `${key.prefix}…${key.last4}`, key.created_at, key.last_used_at ?? "", key.revoked_at ?? ""];
}

function tableRow(key: KeyRecord, paint: Palette): string[] {
  const when = (ts: string | null) => (ts ? ts.slice(0, 16).replace("T", " ") : paint.dim("never"));
  const state = key.revoked_at ? paint.red(`revoked ${key.revoked_at.slice(0, 10)}`) : paint.green("active");
  return [key.id, key.name ?? "", `${key.prefix}…${key.last4}`, when(key.created_at), when(key.last_used_at), state];
}

export function renderKeys(keys: readonly KeyRecord[], format: OutputFormat, paint: Palette): string {
  switch (format) {
    case "json":
      return JSON.stringify(keys, null, 2) + "\n";
    case "csv":
      return csvText([COLUMNS, ...keys.map(cells)]);
    case "tsv":
      return tsvText(keys.map(cells));
    case "table":
      if (keys.length === 0) return paint.dim("(no keys)\n");
      // Too narrow: Created goes first, then Last used, the key's prefix, the state; the id and name stay.
      return renderTable(["ID", "Name", "Key", "Created", "Last used", "State"], keys.map((k) => tableRow(k, paint)), paint, undefined, KEYS_LAYOUT);
  }
}
