import fc from "fast-check";
import { luhnCheckDigit } from "../src/luhn.js";
import { parseIccid, type ParsedIccid } from "../src/parse.js";

// What the core's tests of written and real-world inputs share: a parse that must pass, its warning codes,
// and fast-check arbitraries of digits and valid ICCIDs.

/** `input` parsed, failing the test when it does not pass the grammar. */
export function parsed(input: string): ParsedIccid {
  const result = parseIccid(input);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to pass, got ${result.error.code}`);
  return result;
}

export const codes = (r: ParsedIccid) => r.warnings.map((w) => w.code);
export const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
/** A valid ICCID of 19 or 20 digits. */
export const iccid = digits(16, 17).map((d) => `89${d}${luhnCheckDigit(`89${d}`)}`);
