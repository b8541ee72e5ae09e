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

const EMPTY_RESULT: readonly string[] = RESULT_COLUMNS.map(() => "");

/** The RESULT_COLUMNS cells of one outcome, in order; absent values are empty strings. */
export function resultCells(outcome: LookupOutcome): string[] {
  if (!outcome.ok) {
    const cells = EMPTY_RESULT.slice();
    cells[RESULT_COLUMNS.length - 2] = outcome.error.code;
    cells[RESULT_COLUMNS.length - 1] = outcome.error.message;
    return cells;
  }
  const r = outcome.result;
  return [
    r.iccid,
    String(r.valid),
    r.checks.luhn,
    String(r.length),
    r.calling_code ?? "",
    r.country?.iso2 ?? "",
    r.country?.name ?? "",
    r.issuer?.prefix ?? "",
    r.issuer?.name ?? "",
    r.issuer?.source ?? "",
    r.account_number ?? "",
    r.warnings.map((w) => w.code).join(";"),
    "",
    "",
  ];
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}
