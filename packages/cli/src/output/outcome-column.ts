import type { LookupResult } from "@iccid/core";

/** A lookup without a result: the input as given, and why. batchAll's failed items have this shape too. */
export interface FailedLookup {
  input: string;
  error: { code: string; message: string };
}

/** One ICCID's answer as the CLI shows it: a result, or the reason it has none. */
export type LookupOutcome = { input: string; ok: true; result: LookupResult } | ({ ok: false } & FailedLookup);

/**
 * One column of an output row: its name and its cell for each kind of outcome ("" where it has no value).
 * A row format is a list of these; the renderers and the batch encoder walk the list, so a column's name,
 * value and place are stated once.
 */
export interface OutcomeColumn {
  readonly name: string;
  readonly ofResult: (result: LookupResult) => string;
  readonly ofFailure: (failed: FailedLookup) => string;
}

const blank = (): string => "";

/** A column that only a result has a value in. */
export const resultColumn = (name: string, ofResult: (result: LookupResult) => string): OutcomeColumn => ({ name, ofResult, ofFailure: blank });

/** A column that only a failed lookup has a value in. */
export const failureColumn = (name: string, ofFailure: (failed: FailedLookup) => string): OutcomeColumn => ({ name, ofResult: blank, ofFailure });

/** The cells of one outcome under `columns`, in their order. */
export function rowCells(columns: readonly OutcomeColumn[], outcome: LookupOutcome): string[] {
  if (outcome.ok) {
    const result = outcome.result;
    return columns.map((column) => column.ofResult(result));
  }
  return columns.map((column) => column.ofFailure(outcome));
}
