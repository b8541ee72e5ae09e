import { readFileSync } from "node:fs";
import { luhnCheckDigit, type LookupResult } from "@iccid/core";
import { describe, expect, it } from "vitest";
import { callingCodeTable } from "./calling-codes.js";
import { IccidDecoder } from "./decoder.js";
import { sameIssuer } from "./registry/names.js";

// The labelled corpus of real ICCIDs and issuer prefixes (test/corpus/real-iccids.csv, each row with its
// public source), read through the decoder as a card would be: a prefix is completed to a 19-digit number.

interface CorpusRow {
  iccid: string;
  country: string;
  issuers: string[];
  /** The kind of public source (firmware table, SIM tool fixture, …) and the source itself. */
  sourceKind: string;
  source: string;
}

function readCorpus(): CorpusRow[] {
  const text = readFileSync(new URL("../../test/corpus/real-iccids.csv", import.meta.url), "utf8");
  const [header, ...lines] = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  expect(header!.split(",").slice(0, 5)).toEqual(["iccid", "country", "issuer", "source_kind", "source"]);
  // The first four columns never hold quotes or commas; the source and note columns after them may.
  return lines.map((line) => {
    const [iccid = "", country = "", issuer = "", sourceKind = "", ...rest] = line.split(",");
    return { iccid, country, issuers: issuer.split("|").filter((name) => name !== ""), sourceKind, source: rest.join(",").replace(/^"/, "") };
  });
}

/** A prefix of a card number completed to 19 digits (zeros, then the check digit); a whole number as is. */
function asCard(digits: string): string {
  if (digits.length >= 18) return digits;
  const body = digits.padEnd(18, "0");
  return body + luhnCheckDigit(body);
}

/**
 * ITU's non-geographic calling codes: freephone 800, shared cost 808, Inmarsat 870, UPT 878, satellite
 * 881, international networks 882 and 883, OCHA 888, premium rate 979. Written out here, not read from
 * the calling-code table, so that a change in the phone metadata shows as a failing test.
 */
const INTERNATIONAL_CODES = ["800", "808", "870", "878", "881", "882", "883", "888", "979"];

/**
 * The country is right when it is the labelled one. A card under an international code uses no
 * country's numbering: it must answer no country, and its label is its issuer's country.
 */
function countryRight(result: LookupResult, row: CorpusRow): boolean {
  if (result.calling_code !== null && INTERNATIONAL_CODES.includes(result.calling_code)) {
    return result.country === null && result.issuer?.country?.iso2 === row.country;
  }
  return result.country?.iso2 === row.country;
}

/** The issuer is right when any labelled name is the answer's name or its registered name. */
function issuerRight(result: LookupResult, row: CorpusRow): boolean {
  const issuer = result.issuer;
  if (!issuer) return false;
  const answered = [issuer.name, ...(issuer.registered_name ? [issuer.registered_name] : [])];
  return row.issuers.some((label) => answered.some((name) => sameIssuer(label, name)));
}

const decoder = new IccidDecoder();
const corpus = readCorpus();
const percent = (n: number) => (100 * n) / corpus.length;

describe("the calling-code table the corpus is read with", () => {
  it("names no country for ITU's non-geographic codes, and for no other code", () => {
    const codes = callingCodeTable();
    const assigned = Array.from({ length: 999 }, (_, n) => String(n + 1)).filter((code) => codes.match(code) === code);
    expect(assigned.filter((code) => codes.countries(code).length === 0)).toEqual(INTERNATIONAL_CODES);
  });
});

describe("the labelled corpus of real ICCIDs", () => {
  it("is large and varied enough to judge by", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((row) => row.country)).size).toBeGreaterThanOrEqual(60);
    for (const row of corpus) {
      expect(row.iccid, JSON.stringify(row)).toMatch(/^89\d{5,20}$/);
      expect(row.country, row.iccid).toMatch(/^[A-Z]{2}$/);
      expect(row.issuers.length, row.iccid).toBeGreaterThan(0);
      expect(row.sourceKind, row.iccid).toMatch(/^[a-z][a-z-]+$/);
      expect(row.source.trim(), row.iccid).not.toBe("");
    }
    expect(new Set(corpus.map((row) => row.sourceKind)).size).toBeGreaterThanOrEqual(3);
  });

  it("agrees with the decoder: country ≥ 98 %, issuer right ≥ 90 %, issuer unknown ≤ 5 %", () => {
    let country = 0;
    let issuer = 0;
    let unknown = 0;
    const misses: string[] = [];
    for (const row of corpus) {
      const outcome = decoder.decode(asCard(row.iccid));
      if (!outcome.ok) throw new Error(`${row.iccid}: ${outcome.error.message}`);
      const r = outcome.result;
      const countryOk = countryRight(r, row);
      const issuerOk = issuerRight(r, row);
      if (countryOk) country++;
      if (issuerOk) issuer++;
      if (r.issuer === null) unknown++;
      if (!countryOk || !issuerOk) {
        const answer = r.issuer ? `${r.issuer.name} (${r.issuer.prefix}, ${r.issuer.origin})` : "no issuer";
        misses.push(`${row.iccid} ${row.country} ${row.issuers.join("|")} → ${r.country?.iso2 ?? "-"} ${answer}`);
      }
    }
    const figures =
      `corpus ${corpus.length} rows: country ${percent(country).toFixed(1)} %, issuer right ${percent(issuer).toFixed(1)} %, ` +
      `issuer unknown ${percent(unknown).toFixed(1)} %`;
    console.log(`${figures}\n${misses.map((m) => `  ${m}`).join("\n")}`);
    expect(percent(country), figures).toBeGreaterThanOrEqual(98);
    expect(percent(issuer), figures).toBeGreaterThanOrEqual(90);
    expect(percent(unknown), figures).toBeLessThanOrEqual(5);
  });
});
