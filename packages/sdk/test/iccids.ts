import { luhnCheckDigit } from "@iccid/core";

/** A 20-digit ICCID with a valid Luhn digit whose account part encodes `n` (so each n is distinct). */
export function iccidFor(n: number): string {
  const body = `894410${String(n).padStart(13, "0")}`;
  return body + luhnCheckDigit(body);
}
