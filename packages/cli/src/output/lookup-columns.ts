import type { FailedLookup, LookupResult } from "@iccid/core";
import { LOOKUP_ROW, rowCells } from "@iccid/core/grammar";
import type { InputOutcome } from "../answer-in-order.js";

/** One ICCID's answer as the CLI shows it (an InputOutcome of a lookup). */
export type LookupOutcome = InputOutcome<LookupResult, FailedLookup["error"]>;

/** The lookup row's cells of one outcome (core's LOOKUP_ROW, the columns every format with columns shows). */
export function resultCells(outcome: LookupOutcome): string[] {
  return rowCells(LOOKUP_ROW, outcome);
}

/** The JSON shape of one outcome: the lookup result itself, or `{ input, error }`. Not columns: JSON keeps the whole result. */
export function outcomeJson(outcome: LookupOutcome): unknown {
  return outcome.ok ? outcome.result : { input: outcome.input, error: outcome.error };
}
