import { parse } from "csv-parse/sync";
import { counted } from "@iccid/core";
import type { CustomPrefix } from "../store/store.js";

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

/** How many bad lines an import failure lists; the rest are counted. */
export const BAD_LINES_SHOWN = 20;

export class IssuerCsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IssuerCsvError";
  }
}

/** An issuer prefix as the operator may give one: 4 to 21 digits starting with 89. */
export function checkPrefix(prefix: string, where = ""): void {
  const problem = prefixProblem(prefix);
  if (problem) throw new IssuerCsvError(`${where}${problem}`);
}

function prefixProblem(prefix: string): string | undefined {
  return /^89\d{2,19}$/.test(prefix) ? undefined : `prefix must be 4 to 21 digits starting with 89 (got "${prefix}")`;
}

/** What is wrong with one row (the first rule it breaks), or its prefix when it is good. */
function readRow(row: string[], seen: Set<string>): CustomPrefix | string {
  const [prefix = "", name = "", iso2 = ""] = row;
  if (row.length > 3) return `expected prefix,name[,country_iso2], got ${row.length} fields`;
  const badPrefix = prefixProblem(prefix);
  if (badPrefix) return badPrefix;
  if (seen.has(prefix)) return `prefix ${prefix} appears twice`;
  seen.add(prefix);
  if (name === "" || name.length > 200) return "name must be 1 to 200 characters";
  if (/\p{Cc}/u.test(name)) return "name must not contain control characters";
  const country = iso2.toUpperCase();
  if (country !== "" && (!/^[A-Z]{2}$/.test(country) || !regions.of(country))) {
    return `country_iso2 must be an ISO 3166-1 alpha-2 code (got "${iso2}")`;
  }
  return { prefix, name, country_iso2: country === "" ? null : country };
}

/**
 * Parses `prefix,name[,country_iso2]` rows (an optional header row starting with "prefix"). Nothing is
 * imported unless every row is good; a failure names every bad line and what is wrong with it (the first
 * BAD_LINES_SHOWN of them, and how many there are in all).
 */
export function parseIssuerCsv(text: string): CustomPrefix[] {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw new IssuerCsvError(`not readable as CSV: ${(error as Error).message}`);
  }
  const header = rows[0]?.[0]?.toLowerCase() === "prefix";
  if (header) rows = rows.slice(1);
  const offset = header ? 2 : 1; // line numbers as the operator sees them (blank lines aside)
  const seen = new Set<string>();
  const prefixes: CustomPrefix[] = [];
  const bad: string[] = [];
  rows.forEach((row, i) => {
    const read = readRow(row, seen);
    if (typeof read === "string") bad.push(`line ${i + offset}: ${read}`);
    else prefixes.push(read);
  });
  if (bad.length === 1) throw new IssuerCsvError(bad[0]!);
  if (bad.length > 1) {
    const more = bad.length > BAD_LINES_SHOWN ? [`… and ${counted(bad.length - BAD_LINES_SHOWN, "more bad line")}`] : [];
    const listed = [...bad.slice(0, BAD_LINES_SHOWN), ...more].map((line) => `  ${line}`);
    throw new IssuerCsvError([`${counted(bad.length, "bad line")}, nothing imported:`, ...listed].join("\n"));
  }
  return prefixes;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The prefixes as `prefix,name,country_iso2` CSV with a header: what parseIssuerCsv reads back unchanged. */
export function issuerCsv(prefixes: readonly CustomPrefix[]): string {
  const lines = prefixes.map((p) => [p.prefix, p.name, p.country_iso2 ?? ""].map(csvField).join(","));
  return ["prefix,name,country_iso2", ...lines].join("\n") + "\n";
}
