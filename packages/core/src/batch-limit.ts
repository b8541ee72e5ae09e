/** The most ICCIDs one batch request may carry. */
export const BATCH_MAX_ITEMS = 1000;
