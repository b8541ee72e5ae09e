import { csvRecords, csvText, RegistryDataError, type CsvFile } from "./csv.js";
import { editionLabel, type Edition } from "./editions.js";
import type { RegistryEntry } from "./entry.js";

export const ITU_HEADER = ["prefix", "country_code", "country", "name", "source"] as const;

/**
 * itu-e118.csv from the ITU-T E.118 list's facts (data/sources/e118-iin-list.csv): one issuer per prefix,
 * 89 + its digits. The list also keys each North American issuer `1xxx` a second time as `01xxx`; that twin
 * is not how cards are numbered (US cards are 8901 + the carrier's network code, see numbering.ts), so it
 * is left out. "Global" (the ITU's word for an international network) is no country.
 */
export function ituListText(source: CsvFile, edition: Edition): string {
  const label = editionLabel(edition);
  const rows = csvRecords(source, ["iin", "country_code", "country", "company"] as const)
    .filter((row) => !row.iin.startsWith("0"))
    .map((row) => [`89${row.iin}`, row.country_code, row.country === "Global" ? "" : row.country, row.company, label]);
  return csvText(ITU_HEADER, rows);
}

/** The ITU registrations of itu-e118.csv as registry entries. */
export function ituEntries(file: CsvFile): RegistryEntry[] {
  return csvRecords(file, ITU_HEADER).map((row): RegistryEntry => {
    if (!/^89\d{2,8}$/.test(row.prefix) || row.name === "") {
      throw new RegistryDataError(`${file.name} line ${row.line}: an ITU row needs a prefix of 89 and digits, and a name`);
    }
    return {
      prefix: row.prefix,
      name: row.name,
      registeredName: null,
      origin: "itu-e118",
      confidence: "registered",
      iso2: null,
      countryName: row.country || null,
      mcc: null,
      mnc: null,
      source: row.source,
    };
  });
}
