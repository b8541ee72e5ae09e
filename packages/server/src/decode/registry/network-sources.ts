import { csvRecords, csvText, type CsvFile } from "./csv.js";
import { editionLabel, type Edition } from "./editions.js";
import { sameIssuer } from "./names.js";

/** One network as a source lists it: in one country's table, or in one table several countries share. */
interface Listing {
  mcc: string;
  mnc: string;
  /** The countries of the table that lists it (AU/CC/CX: Australia's, which covers Cocos and Christmas Islands); "" for none. */
  countries: string;
  brand: string;
  operator: string;
  status: string;
  source: string;
}

const code = (l: { mcc: string; mnc: string }) => `${l.mcc}-${l.mnc}`;

function listings(file: CsvFile, countries: "countries" | "iso2", source: string): Listing[] {
  return csvRecords(file, ["mcc", "mnc", countries, "brand", "operator", "status"] as const).map((row) => ({
    mcc: row.mcc,
    mnc: row.mnc,
    countries: row[countries],
    brand: row.brand,
    operator: row.operator,
    status: row.status,
    source,
  }));
}

/** Two listings of one code name one network: a brand or operator of one is one of the other's. */
function sameNetwork(a: Listing, b: Listing): boolean {
  const names = (l: Listing) => [l.brand, l.operator].filter((name) => name !== "");
  return names(a).some((x) => names(b).some((y) => sameIssuer(x, y)));
}

export const NETWORK_CODES_HEADER = ["mcc", "mnc", "iso2", "listing", "brand", "operator", "status", "source"] as const;

/**
 * network-codes.csv from the two network sources. The newest table (python-stdnum's) gives each MCC-MNC
 * its name and status, and the codes it alone has; the older one (mcc-mnc-list) keeps the tables each code
 * is listed in, which the newest table folds into one country (it writes T-Mobile 310-260 as the US Virgin
 * Islands'), where the listing names the same network (310-410 is AT&T in the US table and Liberty in the
 * Virgin Islands' of the older one: the newest table's AT&T keeps the US listing only). A code the newest
 * table places in a country none of its listings names gets that listing too; a listing of no country
 * yields to the newest table's country (995-01, Diego Garcia), and a newest row of no country keeps the
 * older listings' countries (it writes some of Australia's AU/CC/CX table so). A code only the older table has keeps its
 * rows. Rows are one per country of each listing, ordered by MCC and MNC.
 */
export function networkCodesText(older: CsvFile, newer: CsvFile, olderEdition: Edition, newerEdition: Edition): string {
  const olderLabel = editionLabel(olderEdition);
  const newerLabel = editionLabel(newerEdition);
  const byCode = new Map<string, Listing[]>();
  for (const listing of listings(older, "countries", olderLabel)) (byCode.get(code(listing)) ?? byCode.set(code(listing), []).get(code(listing))!).push(listing);
  const newest = new Map(listings(newer, "iso2", newerLabel).map((listing) => [code(listing), listing]));
  for (const [key, listing] of newest) if (!byCode.has(key)) byCode.set(key, []);
  const merged: Listing[] = [];
  for (const [key, rows] of byCode) {
    const latest = newest.get(key);
    if (!latest) {
      merged.push(...rows);
      continue;
    }
    const listed = rows.map((row) => row.countries).filter((countries) => countries !== "");
    const tables =
      latest.countries === ""
        ? listed
        : rows.filter((row) => row.countries !== "" && sameNetwork(row, latest)).map((row) => row.countries);
    if (latest.countries === "" ? tables.length === 0 : !tables.some((countries) => countries.split("/").includes(latest.countries))) tables.push(latest.countries);
    const source = rows.length > 0 ? `${newerLabel}; listings ${olderLabel}` : newerLabel;
    for (const countries of new Set(tables)) merged.push({ ...latest, countries, source });
  }
  merged.sort((a, b) => (a.mcc === b.mcc ? Number(a.mnc.length) - Number(b.mnc.length) || (a.mnc < b.mnc ? -1 : a.mnc > b.mnc ? 1 : 0) : a.mcc < b.mcc ? -1 : 1));
  const seen = new Set<string>();
  const lines: string[][] = [];
  for (const l of merged) {
    for (const iso2 of l.countries.split("/")) {
      const line = [l.mcc, l.mnc, iso2, l.countries, l.brand, l.operator, l.status, l.source];
      const key = line.join("\u0000");
      if (!seen.has(key)) lines.push(line);
      seen.add(key);
    }
  }
  return csvText(NETWORK_CODES_HEADER, lines);
}
