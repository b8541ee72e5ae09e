import type { LookupResult } from "@iccid/core";
import { failureColumn, resultColumn, rowCells, type LookupOutcome, type OutcomeColumn } from "./outcome-column.js";

export type { LookupOutcome } from "./outcome-column.js";

function warningCodes(result: LookupResult): string {
  const warnings = result.warnings;
  if (warnings.length === 0) return "";
  let codes: string = warnings[0]!.code;
  for (let i = 1; i < warnings.length; i++) codes += ";" + warnings[i]!.code;
  return codes;
}

/**
 * The flat row of a lookup, the one definition behind `lookup --output csv`, the piped tab-separated
 * output and the batch CSV (whose fast encoder walks this list too), so that a script written against one
 * reads the others. Columns added later go after `error`, so that a script that reads columns by position
 * keeps working.
 */
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
];

/** The names of LOOKUP_ROW's columns, in order: the CSV header. */
export const RESULT_COLUMNS: readonly string[] = LOOKUP_ROW.map((column) => column.name);

/** The LOOKUP_ROW cells of one outcome, in order; absent values are empty strings. */
export function resultCells(outcome: LookupOutcome): string[] {
  return rowCells(LOOKUP_ROW, outcome);
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. Not columns: JSON keeps the whole result. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}
