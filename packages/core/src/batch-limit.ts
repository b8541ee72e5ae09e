import type { ParsedIccid } from "./parse.js";

/** The most ICCIDs one batch request may carry. */
export const BATCH_MAX_ITEMS = 1000;

/** The longest value one input field (an ICCID, IMSI or EID as written) may hold, in a lookup or a batch item. */
export const INPUT_MAX_LENGTH = 256;

/**
 * The longest input a batch client sends as it was written. A valid ICCID is at most ICCID_MAX_LENGTH
 * characters; written with separators it rarely needs more than 64.
 */
const BATCH_MAX_WIRE_INPUT = 64;

/**
 * What a batch sends for an ICCID that parsed: the input as it was written, so that the answer echoes it, unless
 * it is longer than BATCH_MAX_WIRE_INPUT; then its digits, so that a chunk never nears INPUT_MAX_LENGTH or the
 * server's body limit. The SDK and the page both send this.
 */
export function wireInput(parsed: Pick<ParsedIccid, "input" | "iccid">): string {
  return parsed.input.length <= BATCH_MAX_WIRE_INPUT ? parsed.input : parsed.iccid;
}
