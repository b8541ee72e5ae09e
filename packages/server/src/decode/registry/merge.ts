import type { CuratedRow } from "./curated.js";
import type { RegistryEntry } from "./entry.js";
import { sameIssuer } from "./names.js";

/** Two issuers for one prefix that no row decides between. */
export interface RegistryConflict {
  prefix: string;
  issuers: string[];
  reason: string;
}

export interface MergedRegistry {
  entries: RegistryEntry[];
  conflicts: RegistryConflict[];
}

const describe = (e: RegistryEntry) => `${e.name} (${e.origin}: ${e.source})`;

/**
 * Merges the sources into one entry per prefix. ITU registrations are the base. A numbering rule's prefix
 * that ITU also registers must name the same issuer (it then adds the home network to the registration);
 * a curated row decides any prefix it names: with a registered_name that matches the entry there it renames
 * it (the registration stays), otherwise it replaces it and must say why in its note. Whatever else gives
 * one prefix two issuers is a conflict.
 */
export function mergeRegistry(itu: RegistryEntry[], rules: RegistryEntry[], curated: CuratedRow[]): MergedRegistry {
  const byPrefix = new Map<string, RegistryEntry>();
  const conflicts: RegistryConflict[] = [];
  const decided = new Set(curated.map((row) => row.prefix));
  for (const entry of itu) byPrefix.set(entry.prefix, entry);
  for (const rule of rules) {
    const existing = byPrefix.get(rule.prefix);
    if (!existing) {
      byPrefix.set(rule.prefix, rule);
    } else if (sameIssuer(existing.name, rule.name) || (rule.registeredName && sameIssuer(existing.name, rule.registeredName))) {
      byPrefix.set(rule.prefix, { ...existing, iso2: existing.iso2 ?? rule.iso2, mcc: rule.mcc, mnc: rule.mnc });
    } else if (!decided.has(rule.prefix)) {
      conflicts.push({ prefix: rule.prefix, issuers: [describe(existing), describe(rule)], reason: "two issuers and no curated row decides" });
    }
  }
  for (const row of curated) {
    const existing = byPrefix.get(row.prefix);
    const rename = existing && row.registeredName !== null && sameIssuer(existing.name, row.registeredName);
    if (existing && !rename && !sameIssuer(existing.name, row.name) && row.note === "") {
      conflicts.push({
        prefix: row.prefix,
        issuers: [describe(existing), `${row.name} (curated line ${row.line}: ${row.source})`],
        reason: "the curated row replaces another issuer without a note saying why",
      });
      continue;
    }
    const iso2 = row.country ?? existing?.iso2 ?? null;
    const network = row.mcc ? { mcc: row.mcc, mnc: row.mnc } : { mcc: existing?.mcc ?? null, mnc: existing?.mnc ?? null };
    if (existing && (rename || sameIssuer(existing.name, row.name))) {
      // The same issuer under its current name: the registration (or rule) still says how it is known.
      const registeredName = row.registeredName ?? (existing.name !== row.name ? existing.name : existing.registeredName);
      byPrefix.set(row.prefix, { ...existing, name: row.name, registeredName, iso2, countryName: row.country ? null : existing.countryName, ...network });
    } else {
      byPrefix.set(row.prefix, {
        prefix: row.prefix,
        name: row.name,
        registeredName: row.registeredName,
        origin: "curated",
        confidence: "inferred",
        iso2,
        countryName: null,
        ...network,
        source: row.source,
      });
    }
  }
  return { entries: [...byPrefix.values()], conflicts };
}
