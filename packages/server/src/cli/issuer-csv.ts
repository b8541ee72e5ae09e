import { parse } from "csv-parse/sync";
import type { CustomPrefix } from "../store/store.js";

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

export class IssuerCsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IssuerCsvError";
  }
}

/**
 * Parses `prefix,name[,country_iso2]` rows (an optional header row starting with "prefix"). Every problem
 * names its line and field; nothing is imported unless every row is good.
 */
/** An issuer prefix as the operator may give one: 4 to 21 digits starting with 89. */
export function checkPrefix(prefix: string, where = ""): void {
  if (!/^89\d{2,19}$/.test(prefix)) throw new IssuerCsvError(`${where}prefix must be 4 to 21 digits starting with 89 (got "${prefix}")`);
}

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
  return rows.map((row, i) => {
    const line = i + offset;
    const [prefix = "", name = "", iso2 = ""] = row;
    if (row.length > 3) throw new IssuerCsvError(`line ${line}: expected prefix,name[,country_iso2], got ${row.length} fields`);
    checkPrefix(prefix, `line ${line}: `);
    if (seen.has(prefix)) throw new IssuerCsvError(`line ${line}: prefix ${prefix} appears twice`);
    seen.add(prefix);
    if (name === "" || name.length > 200) throw new IssuerCsvError(`line ${line}: name must be 1 to 200 characters`);
    const country = iso2.toUpperCase();
    if (country !== "" && (!/^[A-Z]{2}$/.test(country) || !regions.of(country))) {
      throw new IssuerCsvError(`line ${line}: country_iso2 must be an ISO 3166-1 alpha-2 code (got "${iso2}")`);
    }
    return { prefix, name, country_iso2: country === "" ? null : country };
  });
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The prefixes as `prefix,name,country_iso2` CSV with a header: what parseIssuerCsv reads back unchanged. */
export function issuerCsv(prefixes: readonly CustomPrefix[]): string {
  const lines = prefixes.map((p) => [p.prefix, p.name, p.country_iso2 ?? ""].map(csvField).join(","));
  return ["prefix,name,country_iso2", ...lines].join("\n") + "\n";
}
