// Internal: not exported from the package, so the mark stays the SDK's own.

/** Marks the SDK's errors, whichever copy of this module made them (a registered symbol is one per realm). */
export const BRAND = Symbol.for("@iccid/sdk.error");
