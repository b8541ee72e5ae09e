import { LOOKUP_ROW, rowCells, type LookupOutcome as ResultOrFailure } from "@iccid/core";

/** One ICCID's answer as the CLI shows it: the input as typed, and a result or the reason it has none. */
export type LookupOutcome = ResultOrFailure & { input: string };

/** The lookup row's cells of one outcome (core's LOOKUP_ROW, the columns every format with columns shows). */
export function resultCells(outcome: LookupOutcome): string[] {
  return rowCells(LOOKUP_ROW, outcome);
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. Not columns: JSON keeps the whole result. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}
