import { createHash } from "node:crypto";
import { callingCodeTable, type CallingCodeTable } from "../calling-codes.js";
import { resolveCountry } from "../country-names.js";
import { readCurated } from "./curated.js";
import { readDataFile, type CsvFile } from "./csv.js";
import type { RegistryEntry } from "./entry.js";
import { ITU_LIST, ituEntries } from "./itu.js";
import { mergeRegistry, type RegistryConflict } from "./merge.js";
import { readNetworks, type Network } from "./network-codes.js";
import { countryPrefixes, numberingEntries, readNumbering, type CountryPrefix } from "./numbering.js";

/** The registry's data files, beside the package (src/ and dist/ are at the same depth). */
export const REGISTRY_DIR = new URL("../../../data/registry/", import.meta.url);

export interface Registry {
  entries: RegistryEntry[];
  /** Prefixes whose numbering decides the country where no entry names the issuer. */
  countryPrefixes: CountryPrefix[];
  /** The network-code list the numbering rules were read against, kept for the IMSI decoder (one parse per process). */
  networks: Network[];
  /** Names the edition: the entry count and a fingerprint of every input. */
  edition: string;
}

export class RegistryConflictError extends Error {
  constructor(readonly conflicts: RegistryConflict[]) {
    super(
      `the issuer registry has ${conflicts.length} unresolved conflict(s); add a curated row that says which issuer wins and why:\n` +
        conflicts.map((c) => `  ${c.prefix}: ${c.issuers.join(" vs ")} (${c.reason})`).join("\n"),
    );
    this.name = "RegistryConflictError";
  }
}

/** Gives an ITU entry its ISO country, among the countries of its calling code. */
function withIso2(entry: RegistryEntry, codes: CallingCodeTable): RegistryEntry {
  if (entry.iso2 || !entry.countryName) return entry;
  const code = codes.ofIccid(entry.prefix);
  const candidates = code ? codes.countries(code) : [];
  const iso2 = candidates.length === 1 ? candidates[0]! : resolveCountry(entry.countryName, candidates);
  return { ...entry, iso2 };
}

/** Merges the registry's sources, read from `dir`; throws on a conflict no row resolves. */
export function buildRegistry(dir: URL = REGISTRY_DIR): Registry {
  const files: CsvFile[] = ["network-codes.csv", "numbering.csv", "curated.csv"].map((name) => readDataFile(dir, name));
  const [networkFile, numberingFile, curatedFile] = files as [CsvFile, CsvFile, CsvFile];
  const numbering = readNumbering(numberingFile);
  const networks = readNetworks(networkFile);
  const rules = numberingEntries(numbering, networks);
  const { entries, conflicts } = mergeRegistry(ituEntries(), rules, readCurated(curatedFile));
  if (conflicts.length > 0) throw new RegistryConflictError(conflicts);
  const codes = callingCodeTable();
  const hash = createHash("sha256").update(JSON.stringify(ITU_LIST));
  for (const file of files) hash.update(file.text);
  return {
    entries: entries.map((entry) => withIso2(entry, codes)),
    countryPrefixes: countryPrefixes(numbering),
    networks,
    edition: `registry.${entries.length}.${hash.digest("hex").slice(0, 10)}`,
  };
}

let shared: Registry | undefined;

/** The registry built from the package's data files, once per process. */
export function defaultRegistry(): Registry {
  shared ??= buildRegistry();
  return shared;
}
