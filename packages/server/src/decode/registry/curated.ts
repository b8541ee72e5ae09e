import { csvRecords, RegistryDataError, type CsvFile } from "./csv.js";

/** One row of curated.csv: an issuer prefix from public evidence, a current name, or an override. */
export interface CuratedRow {
  prefix: string;
  country: string | null;
  name: string;
  /** The name the prefix is registered under (the ITU name of a renamed issuer), when it differs. */
  registeredName: string | null;
  mcc: string | null;
  mnc: string | null;
  source: string;
  /** Why the row is there; required when it overrides another issuer's row. */
  note: string;
  line: number;
}

export function readCurated(file: CsvFile): CuratedRow[] {
  const seen = new Set<string>();
  return csvRecords(file, ["prefix", "country", "name", "registered_name", "mcc", "mnc", "source", "note"] as const).map((row) => {
    const where = `${file.name} line ${row.line}`;
    if (!/^89\d{2,10}$/.test(row.prefix)) throw new RegistryDataError(`${where}: prefix must be 89 and 2 to 10 more digits (got "${row.prefix}")`);
    if (seen.has(row.prefix)) throw new RegistryDataError(`${where}: prefix ${row.prefix} appears twice`);
    seen.add(row.prefix);
    if (row.country !== "" && !/^[A-Z]{2}$/.test(row.country)) throw new RegistryDataError(`${where}: country must be ISO 3166-1 alpha-2 (got "${row.country}")`);
    if (row.name === "") throw new RegistryDataError(`${where}: name is empty`);
    if (row.source === "") throw new RegistryDataError(`${where}: source is empty (every row says where it comes from)`);
    if ((row.mcc === "") !== (row.mnc === "") || (row.mcc !== "" && !/^\d{3}$/.test(row.mcc)) || (row.mnc !== "" && !/^\d{2,3}$/.test(row.mnc))) {
      throw new RegistryDataError(`${where}: mcc and mnc must both be given (3 and 2–3 digits) or both be empty`);
    }
    return {
      prefix: row.prefix,
      country: row.country || null,
      name: row.name,
      registeredName: row.registered_name || null,
      mcc: row.mcc || null,
      mnc: row.mnc || null,
      source: row.source,
      note: row.note,
      line: row.line,
    };
  });
}
