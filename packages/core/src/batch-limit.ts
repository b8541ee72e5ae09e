/** The most ICCIDs one batch request may carry. */
export const BATCH_MAX_ITEMS = 1000;

/**
 * The longest input a batch client sends as it was written. A valid ICCID is at most 22 characters;
 * written with separators it rarely needs more than 64. A longer input that parses goes out as its digits,
 * so that a chunk never nears the server's per-item (256) and body limits. The SDK and the page both keep it.
 */
export const BATCH_MAX_WIRE_INPUT = 64;
