import { readFileSync } from "node:fs";
import { e118IINList } from "e118-iin-list";
import type { RegistryEntry } from "./entry.js";

/**
 * The ITU-T E.118 issuer list (the `e118-iin-list` package) as registry entries, keyed by 89 + its digits.
 * The package also keys each North American issuer `1xxx` a second time as `01xxx`; that twin is not how
 * cards are numbered (US cards are 8901 + the carrier's network code, see numbering.ts), so it is left out.
 */
export function ituEntries(): RegistryEntry[] {
  const edition = `e118-iin-list ${ITU_EDITION}`;
  return Object.entries(e118IINList)
    .filter(([digits]) => !digits.startsWith("0"))
    .map(([digits, [, , , countryName, companyName]]): RegistryEntry => ({
    prefix: `89${digits}`,
    name: companyName.trim(),
    registeredName: null,
    origin: "itu-e118",
    confidence: "registered",
    iso2: null,
    countryName: countryName === "Global" ? null : countryName,
    mcc: null,
    mnc: null,
    source: edition,
    }));
}

/** The raw ITU list, for the edition named in `data_version` (its size and a content fingerprint). */
export const ITU_LIST: Readonly<Record<string, readonly unknown[]>> = e118IINList;
/** The installed `e118-iin-list` version, named in every ITU entry's source. */
export const ITU_EDITION: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.resolve("e118-iin-list")), "utf8")).version;
