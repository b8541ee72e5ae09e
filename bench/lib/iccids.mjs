import { luhnCheckDigit } from "../../packages/core/dist/index.js";

/** 1000 distinct valid 20-digit ICCIDs from several issuers (`seed` shifts the account numbers). */
export function thousandIccids(seed = 0) {
  const prefixes = ["894410", "894504", "8988310", "891000", "8949"];
  return Array.from({ length: 1000 }, (_, i) => {
    const prefix = prefixes[i % prefixes.length];
    const body = prefix + String(seed * 1000 + i).padStart(19 - prefix.length, "0");
    return body + luhnCheckDigit(body);
  });
}
