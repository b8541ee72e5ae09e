import { rowOutcome, type LookupOutcome } from "@iccid/core/grammar";
import type { Tally } from "./upload-protocol.js";

export const emptyTally = (): Tally => ({ rows: 0, valid: 0, invalid: 0, failed: 0, unknownIssuer: 0, byCountry: {} });

/** Counts one row's outcome into the tally. */
export function countOutcome(tally: Tally, outcome: LookupOutcome): void {
  tally.rows++;
  tally[rowOutcome(outcome)]++;
  if (!outcome.ok) return;
  if (outcome.result.issuer === null) tally.unknownIssuer++;
  const country = outcome.result.country?.name ?? "";
  tally.byCountry[country] = (tally.byCountry[country] ?? 0) + 1;
}
