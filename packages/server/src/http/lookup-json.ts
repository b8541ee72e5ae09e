import type { BatchResult, LookupResult } from "@iccid/core";

// Serialising results is the largest cost of a batch. A result is mostly made of objects shared between
// results (country, issuer, warnings: the decoder hands out one frozen object each) and strings that need no
// escaping (the normalised ICCID is [0-9A-F]); only `input` is arbitrary. So each shared object is
// stringified once, and the rest is concatenated. The output is byte-for-byte JSON.stringify's (tested).

const fragments = new WeakMap<object, string>();
const strings = new Map<string, string>();

function shared(value: object | null): string {
  if (value === null) return "null";
  let json = fragments.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    fragments.set(value, json);
  }
  return json;
}

/** A string from a small set (data_version, luhn status): quoted once. */
function constant(value: string): string {
  let json = strings.get(value);
  if (json === undefined) {
    if (strings.size > 1000) strings.clear();
    json = JSON.stringify(value);
    strings.set(value, json);
  }
  return json;
}

/** A string known to hold only [0-9A-F] (or null). */
function plain(value: string | null): string {
  return value === null ? "null" : `"${value}"`;
}

export function lookupResultJson(r: LookupResult): string {
  const warnings = r.warnings.length === 0 ? "[]" : `[${r.warnings.map(shared).join(",")}]`;
  return (
    `{"iccid":${plain(r.iccid)},"input":${JSON.stringify(r.input)},"valid":${r.valid},"length":${r.length},` +
    `"checks":{"format":${r.checks.format},"luhn":${constant(r.checks.luhn)}},"check_digit":${plain(r.check_digit)},` +
    `"mii":${plain(r.mii)},"calling_code":${plain(r.calling_code)},"country":${shared(r.country)},` +
    `"issuer":${shared(r.issuer)},"account_number":${plain(r.account_number)},"warnings":${warnings},` +
    `"data_version":${constant(r.data_version)}}`
  );
}

export function batchResultJson(batch: BatchResult): string {
  // Duplicates share one result object: serialise it once.
  const seen = new Map<LookupResult, string>();
  const items = batch.results.map((item) => {
    if (!item.ok) return JSON.stringify(item);
    let result = seen.get(item.result);
    if (result === undefined) {
      result = lookupResultJson(item.result);
      seen.set(item.result, result);
    }
    return `{"index":${item.index},"ok":true,"result":${result}}`;
  });
  return `{"results":[${items.join(",")}],"summary":${JSON.stringify(batch.summary)}}`;
}
