import type { LookupResult } from "@iccid/core";

/** One ICCID's answer as the CLI shows it: a result, or the reason it has none. */
export type LookupOutcome =
  | { input: string; ok: true; result: LookupResult }
  | { input: string; ok: false; error: { code: string; message: string } };

/**
 * The flat columns of a lookup, shared by `lookup --output csv`, the piped tab-separated output and the
 * batch CSV, so that a script written against one reads the others.
 */
export const RESULT_COLUMNS = [
  "iccid",
  "valid",
  "luhn",
  "length",
  "calling_code",
  "country_iso2",
  "country",
  "issuer_prefix",
  "issuer",
  "issuer_source",
  "account_number",
  "warnings",
  "error_code",
  "error",
] as const;

export type ResultColumn = (typeof RESULT_COLUMNS)[number];

/**
 * The RESULT_COLUMNS cells of one outcome, in order; absent values are empty strings. With `offset`, the
 * cells start at that index of a new array whose head the caller fills (the batch writer puts the input
 * columns there), so a row costs one array rather than three.
 */
export function resultCells(outcome: LookupOutcome, offset = 0): string[] {
  const cells = new Array<string>(offset + RESULT_COLUMNS.length).fill("");
  if (!outcome.ok) {
    cells[offset + RESULT_COLUMNS.length - 2] = outcome.error.code;
    cells[offset + RESULT_COLUMNS.length - 1] = outcome.error.message;
    return cells;
  }
  const r = outcome.result;
  let i = offset;
  cells[i++] = r.iccid;
  cells[i++] = String(r.valid);
  cells[i++] = r.checks.luhn;
  cells[i++] = String(r.length);
  cells[i++] = r.calling_code ?? "";
  cells[i++] = r.country?.iso2 ?? "";
  cells[i++] = r.country?.name ?? "";
  cells[i++] = r.issuer?.prefix ?? "";
  cells[i++] = r.issuer?.name ?? "";
  cells[i++] = r.issuer?.source ?? "";
  cells[i++] = r.account_number ?? "";
  cells[i++] = r.warnings.length === 0 ? "" : r.warnings.map((w) => w.code).join(";");
  return cells;
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}
