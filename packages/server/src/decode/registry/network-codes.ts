import { csvRecords, type CsvFile } from "./csv.js";

/** One E.212 mobile network from the network-code list. */
export interface Network {
  mcc: string;
  mnc: string;
  /** ISO 3166-1 alpha-2 (sometimes a subdivision such as GE-AB), empty for international networks. */
  iso2: string;
  /** The countries of the table that lists it ("AU/CC/CX"); absent or `iso2` for a table of one country. */
  listing?: string;
  /** The brand, else the operator; "" where the list names nobody (the code is assigned, its holder unsaid). */
  name: string;
  /** The operating company, when the list names it apart from the brand. */
  operator: string | null;
  operational: boolean;
  source: string;
}

/**
 * Words a source writes where a code has no holder ("Unassigned", "Reserved", "Test", "Test network"):
 * they name no network.
 */
const PLACEHOLDER = /^(unassigned|reserved|unknown|test|test networks?|n\/a)$/i;

const named = (value: string) => (PLACEHOLDER.test(value) ? "" : value);

/** The network-code list (`network-codes.csv`, made from data/sources by `pnpm data:refresh`). */
export function readNetworks(file: CsvFile): Network[] {
  const rows = csvRecords(file, ["mcc", "mnc", "iso2", "listing", "brand", "operator", "status", "source"] as const, ["listing"]);
  const networks: Network[] = [];
  for (const row of rows) {
    const brand = named(row.brand);
    const operator = named(row.operator);
    const name = brand || operator;
    networks.push({
      mcc: row.mcc,
      mnc: row.mnc,
      iso2: row.iso2,
      listing: row.listing || row.iso2,
      name,
      operator: operator && operator !== name ? operator : null,
      operational: row.status === "Operational",
      source: row.source,
    });
  }
  return networks;
}
