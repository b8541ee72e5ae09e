// The pieces the fast answer checks (lookup-check.ts, batch-check.ts, eid-check.ts) are built of: plain
// comparisons that mirror core's zod schemas and are never more lenient than them (see fast-schema.ts).

type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const isInt = (v: unknown): boolean => Number.isSafeInteger(v);
export const isStringOrNull = (v: unknown): boolean => v === null || typeof v === "string";

export function isCountry(country: unknown): boolean {
  return isObject(country) && typeof country.iso2 === "string" && country.iso2.length === 2 && typeof country.name === "string";
}

export const isCountryOrNull = (country: unknown): boolean => country === null || isCountry(country);

const always = (): boolean => true;

/**
 * The check of a `warnings` list: each warning an object with one of `codes` and a message, and whatever
 * else `isRest` asks of it (an ICCID warning's candidates).
 */
export function isWarningsOf(codes: readonly string[], isRest: (warning: Obj) => boolean = always): (v: unknown) => boolean {
  const known: ReadonlySet<unknown> = new Set(codes);
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) {
      const w: unknown = v[i];
      if (!isObject(w) || !known.has(w.code) || typeof w.message !== "string" || !isRest(w)) return false;
    }
    return true;
  };
}

/**
 * The check of one batch item: a non-negative index, then a result that `isResult` accepts, or the input
 * as sent and an error with one of `codes` and a message, and whatever else `isFailedRest` asks of the
 * failed item and its error (an ICCID item's IMSI).
 */
export function isBatchItemOf(
  isResult: (result: unknown) => boolean,
  codes: readonly string[],
  isFailedRest: (item: Obj, error: Obj) => boolean = always,
): (item: unknown) => boolean {
  const known: ReadonlySet<unknown> = new Set(codes);
  return (item) => {
    if (!isObject(item) || !isInt(item.index) || (item.index as number) < 0) return false;
    if (item.ok === true) return isResult(item.result);
    const error = item.error;
    return item.ok === false && typeof item.input === "string" && isObject(error) && known.has(error.code) && typeof error.message === "string" && isFailedRest(item, error);
  };
}

/** A batch answer's `summary` (core's `BatchSummary`, of the ICCID and the EID batch alike): six integers. */
function isBatchSummary(summary: unknown): boolean {
  if (!isObject(summary)) return false;
  const { total, ok, failed, valid, invalid, unique } = summary;
  return isInt(total) && isInt(ok) && isInt(failed) && isInt(valid) && isInt(invalid) && isInt(unique);
}

/** The check of a batch answer T: its `results`, each accepted by `isItem`, and its summary. */
export function isBatchOf<T>(isItem: (item: unknown) => boolean): (data: unknown) => data is T {
  return (data): data is T => {
    if (!isObject(data)) return false;
    const { results, summary } = data;
    if (!Array.isArray(results) || !isBatchSummary(summary)) return false;
    for (let i = 0; i < results.length; i++) if (!isItem(results[i])) return false;
    return true;
  };
}
