// Which character separates a CSV's fields: the rule of the one CSV reader (csv-records.ts) for a separator
// it is given, for Excel's `sep=X` hint line, and for the separator it detects from a file's first line.

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The field separators a reader detects: comma, semicolon (what spreadsheets write where a comma is the decimal mark), tab. */
export const SEPARATORS = [",", ";", "\t"] as const;
/** How much of a first line without a line end is enough to detect its separator from. */
const DETECT_CHARS = 64 * 1024;

/** Whether `separator` may separate fields: one character, neither a quote nor a line end. */
export function isCsvSeparator(separator: string): boolean {
  return separator.length === 1 && !'"\r\n'.includes(separator);
}

/** A separator that is not one character, or is a quote or a line end. */
export class CsvSeparatorError extends Error {
  constructor(readonly separator: string) {
    super(`the field separator must be one character other than a quote or a line end, not ${JSON.stringify(separator)}`);
    this.name = "CsvSeparatorError";
  }
}

/**
 * The `sep=X` line at the start of `s` (any case, X one character other than a quote or a line end, then
 * a line end or the end): its length with its line end, and X; null when `s` starts otherwise; undefined
 * when it may yet be one and more may come.
 */
export function separatorHint(s: string, end: boolean): { length: number; separator: string } | null | undefined {
  if (!end && s.length < 7 && "sep=".startsWith(s.slice(0, 4).toLowerCase())) return undefined;
  const hint = /^sep=([^"\r\n])(\r\n|\n|\r|$)/i.exec(s);
  return hint ? { length: hint[0].length, separator: hint[1]! } : null;
}

/**
 * The separator of SEPARATORS that the first line holds most of outside quoted fields (blank lines before
 * it skipped), a comma on a tie or when it holds none; undefined when the text holds no whole first line
 * yet and more may come (not `end`, and shorter than DETECT_CHARS). A quote opens a quoted field at the
 * start of a field, as the reader has it, and "" inside one is a quote.
 */
export function detectSeparator(s: string, end: boolean): number | undefined {
  const counts = SEPARATORS.map(() => 0);
  let quoted = false;
  let fieldStart = true;
  let started = false;
  let whole = false;
  for (let i = 0; i < s.length && !whole; i++) {
    const c = s.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE && s.charCodeAt(i + 1) === QUOTE) i++;
      else if (c === QUOTE) quoted = false;
      continue;
    }
    if (c === CR || c === LF) {
      whole = started;
      continue;
    }
    started = true;
    const which = SEPARATORS.indexOf(s[i] as (typeof SEPARATORS)[number]);
    if (which >= 0) {
      counts[which]!++;
      fieldStart = true;
      continue;
    }
    if (c === QUOTE && fieldStart) quoted = true;
    fieldStart = false;
  }
  if (!whole && !end && s.length < DETECT_CHARS) return undefined;
  let best = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k]! > counts[best]!) best = k;
  return SEPARATORS[best]!.charCodeAt(0);
}
