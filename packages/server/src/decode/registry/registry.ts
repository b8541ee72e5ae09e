import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { callingCodeTable, type CallingCodeTable } from "../calling-codes.js";
import { resolveCountry } from "../country-names.js";
import { readCurated } from "./curated.js";
import { readDataFile, type CsvFile } from "./csv.js";
import { readEditions, SOURCES_DIR } from "./editions.js";
import type { RegistryEntry } from "./entry.js";
import { ituEntries } from "./itu.js";
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
  /** Names the data: the entry count, a fingerprint of every input, and each source's edition date. */
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

/**
 * Gives an ITU entry its ISO country: the country the registration names, among its calling code's
 * countries, else among all (an issuer answers its own country: NOW `8924905` is registered for South
 * Sudan under Sudan's 249); a name that resolves nowhere leaves the code's country when it has only one.
 */
function withIso2(entry: RegistryEntry, codes: CallingCodeTable): RegistryEntry {
  if (entry.iso2 || !entry.countryName) return entry;
  const code = codes.ofIccid(entry.prefix);
  const candidates = code ? codes.countries(code) : [];
  const iso2 = resolveCountry(entry.countryName, candidates) ?? resolveCountry(entry.countryName, codes.allCountries()) ?? (candidates.length === 1 ? candidates[0]! : null);
  return { ...entry, iso2 };
}

/** A data folder's file, or the package's where the folder has none (a test folder gives the files it varies). */
function dataFile(dir: URL, name: string): CsvFile {
  return readDataFile(existsSync(new URL(name, dir)) ? dir : REGISTRY_DIR, name);
}

/** Merges the registry's sources, read from `dir`; throws on a conflict no row resolves. */
export function buildRegistry(dir: URL = REGISTRY_DIR): Registry {
  const files: CsvFile[] = ["itu-e118.csv", "network-codes.csv", "numbering.csv", "curated.csv"].map((name) => dataFile(dir, name));
  const [ituFile, networkFile, numberingFile, curatedFile] = files as [CsvFile, CsvFile, CsvFile, CsvFile];
  const codes = callingCodeTable();
  const numbering = readNumbering(numberingFile);
  const networks = readNetworks(networkFile);
  const rules = numberingEntries(numbering, networks, codes);
  const itu = ituEntries(ituFile).map((entry) => withIso2(entry, codes));
  const { entries, conflicts } = mergeRegistry(itu, rules, readCurated(curatedFile));
  if (conflicts.length > 0) throw new RegistryConflictError(conflicts);
  const hash = createHash("sha256");
  for (const file of files) hash.update(file.text);
  const editions = [...readEditions(readDataFile(SOURCES_DIR, "editions.csv")).values()].map((e) => `${e.key}-${e.date}`);
  return {
    entries: entries.map((entry) => withIso2(entry, codes)),
    countryPrefixes: countryPrefixes(numbering),
    networks,
    edition: `registry.${entries.length}.${hash.digest("hex").slice(0, 10)}.${editions.join(".")}`,
  };
}

let shared: Registry | undefined;

/** The registry built from the package's data files, once per process. */
export function defaultRegistry(): Registry {
  shared ??= buildRegistry();
  return shared;
}
