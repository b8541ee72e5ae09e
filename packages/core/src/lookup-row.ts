import { csvCell } from "./csv-cell.js";
import type { LookupResult } from "./types/lookup.js";

// The flat row of a lookup: the columns of the server's CSV batch answer and of every `iccid` CLI format
// that has columns (`lookup --output csv`, the piped tab-separated output, `batch` CSV), so that a script
// written against one reads the others. Columns added later go after the last one, so that a script that
// reads columns by position keeps working. The column pieces (OutcomeColumn, rowCells) serve any row of
// outcomes; a lookup's are their defaults.

/** A lookup without a result: the input as given, and why. A batch's failed items have this shape too. */
export interface FailedLookup {
  input: string;
  error: { code: string; message: string };
}

/** An answer in a row: a result R, or a failure carrying F, the reason there is none. */
export type Outcome<R, F> = { ok: true; result: R } | ({ ok: false } & F);

/** One ICCID's answer in a row: a result, or the reason it has none (a BatchItem is one of these). */
export type LookupOutcome = Outcome<LookupResult, FailedLookup>;

/**
 * One column of a row: its name and its cell for each kind of outcome ("" where it has no value). A row
 * format is a list of these; the renderers and encoders walk the list, so a column's name, value and
 * place are stated once. R is what a result is and F what a failure carries (a lookup's by default; a row
 * of other answers names its own).
 */
export interface OutcomeColumn<R = LookupResult, F = FailedLookup> {
  readonly name: string;
  readonly ofResult: (result: R) => string;
  readonly ofFailure: (failed: F) => string;
}

const blank = (): string => "";

/** A column that only a result has a value in. */
export const resultColumn = <R = LookupResult, F = FailedLookup>(name: string, ofResult: (result: R) => string): OutcomeColumn<R, F> => ({
  name,
  ofResult,
  ofFailure: blank,
});

/** A column that only a failed outcome has a value in. */
export const failureColumn = <R = LookupResult, F = FailedLookup>(name: string, ofFailure: (failed: F) => string): OutcomeColumn<R, F> => ({
  name,
  ofResult: blank,
  ofFailure,
});

function warningCodes(result: LookupResult): string {
  const warnings = result.warnings;
  if (warnings.length === 0) return "";
  let codes: string = warnings[0]!.code;
  for (let i = 1; i < warnings.length; i++) codes += ";" + warnings[i]!.code;
  return codes;
}

/** The lookup row's columns, in their published order. */
export const LOOKUP_ROW: readonly OutcomeColumn[] = [
  resultColumn("iccid", (r) => r.iccid),
  resultColumn("valid", (r) => (r.valid ? "true" : "false")),
  resultColumn("luhn", (r) => r.checks.luhn),
  resultColumn("length", (r) => String(r.length)),
  resultColumn("calling_code", (r) => r.calling_code ?? ""),
  resultColumn("country_iso2", (r) => r.country?.iso2 ?? ""),
  resultColumn("country", (r) => r.country?.name ?? ""),
  resultColumn("issuer_prefix", (r) => r.issuer?.prefix ?? ""),
  resultColumn("issuer", (r) => r.issuer?.name ?? ""),
  resultColumn("issuer_source", (r) => r.issuer?.source ?? ""),
  resultColumn("account_number", (r) => r.account_number ?? ""),
  resultColumn("warnings", warningCodes),
  failureColumn("error_code", (f) => f.error.code),
  failureColumn("error", (f) => f.error.message),
  resultColumn("issuer_registered_name", (r) => r.issuer?.registered_name ?? ""),
  resultColumn("issuer_origin", (r) => r.issuer?.origin ?? ""),
  resultColumn("issuer_confidence", (r) => r.issuer?.confidence ?? ""),
  resultColumn("home_mcc", (r) => r.home_network?.mcc ?? ""),
  resultColumn("home_mnc", (r) => r.home_network?.mnc ?? ""),
  resultColumn("expected_check_digit", (r) => r.checks.expected_check_digit ?? ""),
  resultColumn("missing_check_digit", (r) => r.checks.missing_check_digit ?? ""),
  resultColumn("issuer_country_iso2", (r) => r.issuer?.country?.iso2 ?? ""),
];

/** The names of LOOKUP_ROW's columns, in order: a CSV header. */
export const LOOKUP_ROW_COLUMNS: readonly string[] = LOOKUP_ROW.map((column) => column.name);

/** Where the `valid` cell is in the row: "true", "false", or empty for a failed lookup. */
export const LOOKUP_ROW_VALID = LOOKUP_ROW_COLUMNS.indexOf("valid");

/** What a row says of its ICCID: a valid number, a well-formed one that fails its check, or no result. */
export type RowOutcome = "valid" | "invalid" | "failed";

/** The outcome of a lookup, as its row's `valid` cell tells it. */
export function rowOutcome(outcome: LookupOutcome): RowOutcome {
  return !outcome.ok ? "failed" : outcome.result.valid ? "valid" : "invalid";
}

/** The cells of one outcome under `columns`, in their order: the result's cells, or the failure's. */
export function rowCells<R = LookupResult, F = FailedLookup>(
  columns: readonly OutcomeColumn<R, F>[],
  outcome: Outcome<R, F>,
): string[] {
  if (outcome.ok) {
    const result = outcome.result;
    return columns.map((column) => column.ofResult(result));
  }
  return columns.map((column) => column.ofFailure(outcome));
}

// LOOKUP_ROW's getters as two flat lists, walked once per row by the encoder below.
const OF_RESULT = LOOKUP_ROW.map((column) => column.ofResult);
const OF_FAILURE = LOOKUP_ROW.map((column) => column.ofFailure);

function joinCells<T>(getters: ReadonlyArray<(value: T) => string>, value: T): string {
  let line = csvCell(getters[0]!(value));
  for (let i = 1; i < getters.length; i++) line += "," + csvCell(getters[i]!(value));
  return line;
}

/** One outcome's lookup row as a CSV line without its line end (the cells of csvLine(rowCells(...))). */
export function lookupRowCsv(outcome: LookupOutcome): string {
  return outcome.ok ? joinCells(OF_RESULT, outcome.result) : joinCells(OF_FAILURE, outcome);
}
