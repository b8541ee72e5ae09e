import { csvRecords, RegistryDataError, type CsvFile } from "./csv.js";

/** The sources' facts files (data/sources), beside the registry's folder. */
export const SOURCES_DIR = new URL("../../../data/sources/", import.meta.url);

/** One source at the edition its facts file in data/sources holds. */
export interface Edition {
  source: string;
  /** The short name data_version uses (e118, mcc, stdnum). */
  key: string;
  /** The edition as the source names it: a package version, a bulletin number, a date. */
  tag: string;
  /** When the edition's data were published (YYYY-MM-DD). */
  date: string;
  licence: string;
}

/** data/sources/editions.csv: every source has its edition, date and licence, or the sources are not read. */
export function readEditions(file: CsvFile): Map<string, Edition> {
  const editions = new Map<string, Edition>();
  for (const row of csvRecords(file, ["source", "key", "tag", "date", "licence", "read_from"] as const)) {
    const where = `${file.name} line ${row.line}`;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.date)) throw new RegistryDataError(`${where}: date must be YYYY-MM-DD (got "${row.date}")`);
    if (!/^[a-z0-9]+$/.test(row.key)) throw new RegistryDataError(`${where}: key must be lower-case letters and digits (got "${row.key}")`);
    if (row.tag === "" || row.licence === "" || row.read_from === "") throw new RegistryDataError(`${where}: tag, licence and read_from are required`);
    editions.set(row.source, { source: row.source, key: row.key, tag: row.tag, date: row.date, licence: row.licence });
  }
  return editions;
}

/** The edition of `source`; a source the file does not list is an error naming it. */
export function editionOf(editions: Map<string, Edition>, source: string): Edition {
  const edition = editions.get(source);
  if (!edition) throw new RegistryDataError(`editions.csv: no edition for the source "${source}"`);
  return edition;
}

/** How a row names the edition it comes from: `mcc-mnc-list@1.1.11`. */
export const editionLabel = (edition: Edition): string => `${edition.source}@${edition.tag}`;
