import type { KeyRecord } from "@iccid/core";

/** How a key is named where its secret is not known: its visible prefix and last four characters. */
export const keyLabel = (key: Pick<KeyRecord, "prefix" | "last4">): string => `${key.prefix}…${key.last4}`;
