import type { LookupResult } from "@iccid/core";
import { csvCell } from "./csv.js";

/** One ICCID's answer as the CLI shows it: a result, or the reason it has none. */
export type LookupOutcome =
  | { input: string; ok: true; result: LookupResult }
  | { input: string; ok: false; error: { code: string; message: string } };

/**
 * The flat columns of a lookup, shared by `lookup --output csv`, the piped tab-separated output and the
 * batch CSV, so that a script written against one reads the others. Columns added later go after `error`,
 * so that a script that reads columns by position keeps working.
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
  "issuer_registered_name",
  "issuer_origin",
  "issuer_confidence",
  "home_mcc",
  "home_mnc",
  "expected_check_digit",
  "missing_check_digit",
] as const;

/** Where error_code sits; the columns after error describe a result. */
const ERROR_CODE_AT = RESULT_COLUMNS.indexOf("error_code");

/**
 * The RESULT_COLUMNS cells of one outcome, in order; absent values are empty strings. With `offset`, the
 * cells start at that index of a new array whose head the caller fills (the batch writer puts the input
 * columns there), so a row costs one array rather than three.
 */
export function resultCells(outcome: LookupOutcome, offset = 0): string[] {
  const cells = new Array<string>(offset + RESULT_COLUMNS.length).fill("");
  if (!outcome.ok) {
    cells[offset + ERROR_CODE_AT] = outcome.error.code;
    cells[offset + ERROR_CODE_AT + 1] = outcome.error.message;
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
  i += 2; // error_code, error
  cells[i++] = r.issuer?.registered_name ?? "";
  cells[i++] = r.issuer?.origin ?? "";
  cells[i++] = r.issuer?.confidence ?? "";
  cells[i++] = r.home_network?.mcc ?? "";
  cells[i++] = r.home_network?.mnc ?? "";
  cells[i++] = r.checks.expected_check_digit ?? "";
  cells[i++] = r.checks.missing_check_digit ?? "";
  return cells;
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}

/** Empty cells for the result columns an error has no value in, and the comma after each. */
const EMPTY_RESULT_CELLS = ",".repeat(ERROR_CODE_AT);
const EMPTY_LATER_CELLS = ",".repeat(RESULT_COLUMNS.length - ERROR_CODE_AT - 2);

/** The cells after `error` of a result, as CSV text starting with a comma. */
export function laterCsv(r: LookupResult): string {
  const issuer = r.issuer;
  const home = r.home_network;
  return (
    `,${issuer ? `${csvCell(issuer.registered_name ?? "")},${csvCell(issuer.origin)},${csvCell(issuer.confidence)}` : ",,"}` +
    `,${home ? `${csvCell(home.mcc)},${csvCell(home.mnc)}` : ","}` +
    `,${r.checks.expected_check_digit ?? ""},${r.checks.missing_check_digit ?? ""}`
  );
}

/**
 * The RESULT_COLUMNS cells of one outcome as CSV text (no line end): the same cells as resultCells, each
 * through csvCell, built as one string. The batch writer's per-row path, where an array per row and a
 * generic CSV writer cost more than the lookup itself.
 */
export function resultCsv(outcome: { ok: true; result: LookupResult } | { ok: false; error: { code: string; message: string } }): string {
  if (!outcome.ok) return `${EMPTY_RESULT_CELLS}${csvCell(outcome.error.code)},${csvCell(outcome.error.message)}${EMPTY_LATER_CELLS}`;
  const r = outcome.result;
  const country = r.country;
  const issuer = r.issuer;
  let warnings = "";
  for (let i = 0; i < r.warnings.length; i++) warnings += (i === 0 ? "" : ";") + r.warnings[i]!.code;
  return (
    `${csvCell(r.iccid)},${r.valid ? "true" : "false"},${csvCell(r.checks.luhn)},${csvCell(String(r.length))},` +
    `${csvCell(r.calling_code ?? "")},${country ? `${csvCell(country.iso2)},${csvCell(country.name)}` : ","},` +
    `${issuer ? `${csvCell(issuer.prefix)},${csvCell(issuer.name)},${csvCell(issuer.source)}` : ",,"},` +
    `${csvCell(r.account_number ?? "")},${csvCell(warnings)},,${laterCsv(r)}`
  );
}
