import { e118IINList } from "e118-iin-list";
import type { IssuerEntry } from "./prefix-index.js";

/**
 * The ITU-T E.118 issuer list as index entries. The package keys each prefix by the digits after 89; North
 * American issuers (calling code 1) are also written 8901… on cards, so each `1…` prefix gets its `01…`
 * twin unless the list already has one.
 */
export function ituIssuerEntries(): IssuerEntry[] {
  const entries = new Map<string, IssuerEntry>();
  for (const [digits, [, , , countryName, companyName]] of Object.entries(e118IINList)) {
    const global = countryName === "Global";
    entries.set(digits, {
      prefix: `89${digits}`,
      name: companyName.trim(),
      source: "itu-e118",
      iso2: null,
      countryName: global ? null : countryName,
    });
  }
  for (const [digits, entry] of [...entries]) {
    const twin = `0${digits}`;
    if (digits.startsWith("1") && !entries.has(twin)) entries.set(twin, { ...entry, prefix: `89${twin}` });
  }
  return [...entries.values()];
}

/** The raw ITU list, for the edition named in `data_version` (its size and a content fingerprint). */
export const ITU_LIST: Readonly<Record<string, readonly unknown[]>> = e118IINList;
