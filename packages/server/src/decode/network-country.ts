import type { Network } from "./registry/network-codes.js";

/** What an MCC's networks say about it: its own table (the listing most of its rows come from: US, AU/CC/CX) and country. */
export interface MccHome {
  table: string | null;
  country: string | null;
}

/**
 * The country a network of one MCC-MNC is in, from the tables that list it. The MCC's own table lists
 * every code of the MCC; a territory with no MCC of its own lists its networks, numbered under another
 * country's MCC, in a table of its own. So a network listed in the MCC's table and in exactly one other
 * table, of one such territory, is the territory's (Jawwal 425-05: Israel's MCC, Palestine's network;
 * Norfolk Telecom 505-10 beside Australia's AU/CC/CX table); listed in several others it stays the MCC's
 * country's (T-Mobile 310-260 in PR, US and VI), and so does one listed by a country with an MCC of its
 * own (Orange Luxembourg 270-99 in Belgium's table) or one the MCC's table covers (French Guiana beside
 * the BL/GF/GP/MF/MQ table of 340). Operating listings count when there are any.
 * Otherwise the MCC's country where a listing is in it, else the first listing's.
 */
export function networkCountry(same: readonly Network[], home: MccHome, mccCountries: ReadonlySet<string>): string {
  const live = same.filter((network) => network.operational);
  const rows = live.length > 0 ? live : same;
  const tables = [...new Set(rows.map(tableOf))];
  const others = tables.filter((table) => table !== home.table);
  const territory = others.length === 1 && others.length < tables.length ? others[0]! : null;
  const covered = territory !== null && home.table !== null && home.table.split("/").includes(territory);
  if (territory !== null && /^[A-Z]{2}$/.test(territory) && !covered && !mccCountries.has(territory)) return territory;
  return home.country !== null && rows.some((network) => network.iso2 === home.country) ? home.country : rows[0]!.iso2;
}

/** The table a network row comes from. */
export const tableOf = (network: Network): string => network.listing ?? network.iso2;

/**
 * The MNC length of an MCC: the one length its operating networks share (all its networks where none
 * operates), or null when they have both. A code no longer operating keeps its own length but does not
 * make the MCC's numbering mixed (Votek Mobile's 250-811 beside Russia's two-digit networks).
 */
export function mncLength(networks: readonly Network[]): 2 | 3 | null {
  const live = networks.filter((network) => network.operational);
  const lengths = new Set((live.length > 0 ? live : networks).map((network) => network.mnc.length));
  const length = lengths.size === 1 ? [...lengths][0] : undefined;
  return length === 2 || length === 3 ? length : null;
}

/** The network list's rows by MCC, then by MNC (a code listed in several tables has a row per table). */
function byMccMnc(networks: readonly Network[]): Map<string, Map<string, Network[]>> {
  const rows = new Map<string, Map<string, Network[]>>();
  for (const network of networks) {
    const byMnc = rows.get(network.mcc) ?? rows.set(network.mcc, new Map()).get(network.mcc)!;
    (byMnc.get(network.mnc) ?? byMnc.set(network.mnc, []).get(network.mnc)!).push(network);
  }
  return rows;
}

/** The value that occurs most often, or null when two share the top count or there is none. */
function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return ranked[0] && ranked[0][1] !== ranked[1]?.[1] ? ranked[0][0] : null;
}

/** Each MCC's home: the table most of its rows come from, and the country most of its codes are listed in. */
function mccHomes(rows: ReadonlyMap<string, ReadonlyMap<string, readonly Network[]>>): Map<string, MccHome> {
  const homes = new Map<string, MccHome>();
  for (const [mcc, byMnc] of rows) {
    const all = [...byMnc.values()].flat();
    // Each code counts once per country it is listed in, however many tables list it there.
    const countries = [...byMnc.values()].flatMap((same) => [...new Set(same.map((network) => network.iso2))]);
    homes.set(mcc, { table: mostCommon(all.map(tableOf)), country: mostCommon(countries) });
  }
  return homes;
}

/** Where the network list's codes are: its rows by MCC and MNC, each MCC's home, and each MCC-MNC's country. */
export interface NetworkPlaces {
  rows: Map<string, Map<string, Network[]>>;
  homes: Map<string, MccHome>;
  /** networkCountry of each MCC-MNC, keyed "mcc-mnc". */
  countries: Map<string, string>;
}

/** Reads the network list's places once, for the IMSI decoder and the numbering rules alike. */
export function networkPlaces(networks: readonly Network[]): NetworkPlaces {
  const rows = byMccMnc(networks);
  const homes = mccHomes(rows);
  // The countries that are some MCC's home: a territory among them has codes of its own.
  const mccCountries = new Set([...homes.values()].flatMap((home) => (home.country === null ? [] : [home.country])));
  const countries = new Map<string, string>();
  for (const [mcc, byMnc] of rows) for (const [mnc, same] of byMnc) countries.set(`${mcc}-${mnc}`, networkCountry(same, homes.get(mcc)!, mccCountries));
  return { rows, homes, countries };
}

