import type { KeyRecord } from "@iccid/core";
import { tsvText } from "@iccid/core/grammar";
import type { Palette } from "./colour.js";
import { csvText } from "./csv.js";
import type { OutputFormat } from "./format.js";
import { renderTable, type TableLayout } from "./table.js";

const COLUMNS = ["id", "name", "key", "scopes", "created_at", "expires_at", "last_used_at", "revoked_at"];
// Too narrow: Created goes first, then Last used, Expires, the key's prefix, Scopes (what a key may do);
// id, name and state stay.
const KEYS_LAYOUT: TableLayout = { drop: [4, 6, 5, 2, 3], wrap: [1] };

function cells(key: KeyRecord): string[] {
  return [
    key.id,
    key.name ?? "",
    `${key.prefix}…${key.last4}`,
    key.scopes.join(" "),
    key.created_at,
    key.expires_at ?? "",
    key.last_used_at ?? "",
    key.revoked_at ?? "",
  ];
}

/** Revoked, expired (its expires_at passed: a rolled key past its grace too), or active. */
function state(key: KeyRecord, paint: Palette, now: number): string {
  if (key.revoked_at) return paint.red(`revoked ${key.revoked_at.slice(0, 10)}`);
  if (key.expires_at && Date.parse(key.expires_at) <= now) return paint.red(`expired ${key.expires_at.slice(0, 10)}`);
  return paint.green("active");
}

function tableRow(key: KeyRecord, paint: Palette, now: number): string[] {
  const when = (ts: string | null, none: string) => (ts ? ts.slice(0, 16).replace("T", " ") : paint.dim(none));
  return [
    key.id,
    key.name ?? "",
    `${key.prefix}…${key.last4}`,
    key.scopes.join(" "),
    when(key.created_at, ""),
    when(key.expires_at, "never"),
    when(key.last_used_at, "never"),
    state(key, paint, now),
  ];
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
      return renderTable(
        ["ID", "Name", "Key", "Scopes", "Created", "Expires", "Last used", "State"],
        keys.map((k) => tableRow(k, paint, Date.now())),
        paint,
        undefined,
        KEYS_LAYOUT,
      );
  }
}
