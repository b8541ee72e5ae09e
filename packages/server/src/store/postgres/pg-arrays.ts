import type pg from "pg";

// Array parameters as PostgreSQL's array literals, written directly: numbers need no escaping, and text is
// quoted once per element (pg's own value mapping escapes every element of every array, whatever its type).
// Rows read with TEXT_FIELDS come back as the text PostgreSQL sent, arrays as their literals.

/** Every column as the text PostgreSQL sent, for a reader that parses its fields itself. */
export const TEXT_FIELDS: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

/** Integers, which need no quoting; anything else is refused rather than sent. */
export function numberArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new TypeError(`not an integer: ${v}`);
  return `{${values.join(",")}}`;
}

/** Every element quoted, with the two characters a quoted element escapes (backslash, double quote) escaped. */
export function textArray(values: readonly string[]): string {
  let literal = "{";
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // Ids almost never hold either character: the test spares a replace (a call into the runtime) per element.
    literal += `${i > 0 ? "," : ""}"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, "\\$&") : v}"`;
  }
  return `${literal}}`;
}

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** Tokens are our own randomUUID()s: nothing in them to quote. */
export function uuidArray(tokens: readonly string[]): string {
  return `{${tokens.join(",")}}`;
}
