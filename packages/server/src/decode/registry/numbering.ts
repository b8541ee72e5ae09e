import { csvRecords, RegistryDataError, type CsvFile } from "./csv.js";
import type { RegistryEntry } from "./entry.js";
import { sameIssuer } from "./names.js";
import type { CallingCodeTable } from "../calling-codes.js";
import { networkPlaces } from "../network-country.js";
import type { Network } from "./network-codes.js";

/**
 * How a country numbers its cards, when not (only) by ITU registration:
 * - `mnc`: 89 + calling code + the row's national digits (none for most countries; Russia's 01) + the MNC
 *   of the issuing network;
 * - `mcc-mnc`: 89 + MCC + MNC (Canada: Rogers 302-720 is 89302720…);
 * - `us-network-code`: 89 01 + the 3-digit network code, the MNC under MCC 310 (AT&T 310-410 is 8901410…),
 *   or under 311–316 where 310 has no such network and exactly one of them does;
 * - `us-mcc-mnc`: 89 + MCC 310–316 + the 3-digit MNC of an operating US network (AT&T 310-410 is
 *   89310410…); these digits also read as the Netherlands' (31), so the decoder weighs the two readings;
 * - `itu`: ITU registrations only (no rule).
 * A country may have a row per scheme its cards use.
 */
export const SCHEMES = ["mnc", "mcc-mnc", "us-network-code", "us-mcc-mnc", "itu"] as const;
export type Scheme = (typeof SCHEMES)[number];

export interface NumberingRule {
  country: string;
  callingCode: string;
  scheme: Scheme;
  /** Digits between the calling code and the MNC under the `mnc` scheme (Russia: 01), else "". */
  nationalDigits: string;
  source: string;
}

/** Digits that decide a card's country by a national numbering rule, whatever issuer follows them. */
export interface CountryPrefix {
  prefix: string;
  iso2: string;
}

export function readNumbering(file: CsvFile): NumberingRule[] {
  return csvRecords(file, ["country", "calling_code", "scheme", "source", "national_digits"] as const).map((row) => {
    const scheme = row.scheme as Scheme;
    if (!SCHEMES.includes(scheme)) throw new RegistryDataError(`${file.name} line ${row.line}: scheme must be one of ${SCHEMES.join(", ")} (got "${row.scheme}")`);
    if (!/^[A-Z]{2}$/.test(row.country)) throw new RegistryDataError(`${file.name} line ${row.line}: country must be ISO 3166-1 alpha-2 (got "${row.country}")`);
    if (!/^\d{1,3}$/.test(row.calling_code)) throw new RegistryDataError(`${file.name} line ${row.line}: calling_code must be 1 to 3 digits (got "${row.calling_code}")`);
    if (!/^\d{0,3}$/.test(row.national_digits) || (row.national_digits !== "" && scheme !== "mnc")) {
      throw new RegistryDataError(`${file.name} line ${row.line}: national_digits must be up to 3 digits, and only with the mnc scheme (got "${row.national_digits}")`);
    }
    return { country: row.country, callingCode: row.calling_code, scheme, nationalDigits: row.national_digits, source: row.source };
  });
}

/** Each country's networks, operational ones first (so that where a code is listed twice the live one names it). */
function byCountry(networks: Network[]): Map<string, Network[]> {
  const countries = new Map<string, Network[]>();
  for (const network of networks) {
    if (network.name === "") continue; // an assigned code nobody is named for says nothing about an issuer
    const list = countries.get(network.iso2) ?? [];
    list.push(network);
    countries.set(network.iso2, list);
  }
  for (const list of countries.values()) list.sort((a, b) => Number(b.operational) - Number(a.operational));
  return countries;
}

/** The country a rule's issuer answers, for its network. */
type Locate = (network: Network, rule: NumberingRule) => string;

/**
 * The network's own country where its calling code is not the card's and its MCC's table does not cover
 * it (Jawwal 425-05 under Israel's 972 is Palestine's, Norfolk Telecom 505-10 under Australia's 61 is
 * Norfolk Island's), else the rule's (Orange 340-01 under Martinique's 596 stays Martinique's, whatever
 * other territory of 340's table also lists it).
 */
function locator(networks: readonly Network[], codes: CallingCodeTable): Locate {
  const { homes, countries } = networkPlaces(networks);
  return (network, rule) => {
    const own = countries.get(`${network.mcc}-${network.mnc}`)!;
    const covered = homes.get(network.mcc)!.table?.split("/").includes(own) ?? false;
    return /^[A-Z]{2}$/.test(own) && !covered && !codes.countries(rule.callingCode).includes(own) ? own : rule.country;
  };
}

function ruleEntry(prefix: string, network: Network, rule: NumberingRule, locate: Locate): RegistryEntry {
  return {
    prefix,
    name: network.name,
    registeredName: network.operator,
    origin: "numbering-rule",
    confidence: "inferred",
    iso2: locate(network, rule),
    countryName: null,
    mcc: network.mcc,
    mnc: network.mnc,
    mccNumbered: rule.scheme === "mcc-mnc" || rule.scheme === "us-mcc-mnc",
    source: `${rule.scheme} rule (${rule.source}); network ${network.mcc}-${network.mnc} from ${network.source}`,
  };
}

/** A network the `us-mcc-mnc` scheme reads: an operating one of MCC 310–316 with a 3-digit MNC. */
function isUsMccNetwork(network: Network): boolean {
  return network.operational && network.mnc.length === 3 && network.mcc >= "310" && network.mcc <= "316";
}

/**
 * The prefixes that decide a country without naming an issuer: 89 + calling code + national digits of
 * each `mnc` rule that has national digits (Russia's 89 7 01), so that a card of a network the list lacks
 * still names its country.
 */
export function countryPrefixes(rules: NumberingRule[]): CountryPrefix[] {
  return rules
    .filter((rule) => rule.scheme === "mnc" && rule.nationalDigits !== "")
    .map((rule) => ({ prefix: `89${rule.callingCode}${rule.nationalDigits}`, iso2: rule.country }));
}

/** The networks a `us-network-code` prefix 8901 + code reads as: MCC 310's, else the one 311–316 network. */
function usNetworks(networks: readonly Network[]): Map<string, Network> {
  const byCode = new Map<string, Network>();
  const elsewhere = new Map<string, Network[]>();
  for (const network of networks) {
    if (network.mnc.length !== 3) continue;
    if (network.mcc === "310") {
      if (!byCode.has(network.mnc)) byCode.set(network.mnc, network);
    } else if (network.mcc >= "311" && network.mcc <= "316") {
      const list = elsewhere.get(network.mnc) ?? [];
      if (!list.some((n) => n.mcc === network.mcc)) list.push(network);
      elsewhere.set(network.mnc, list);
    }
  }
  for (const [code, list] of elsewhere) if (!byCode.has(code) && list.length === 1) byCode.set(code, list[0]!);
  return byCode;
}

/**
 * The issuer prefixes the numbering rules give, one per network of each rule's country. Where one rule
 * gives a prefix twice (a country with two MCCs), the live network wins over one no longer operating and
 * two names of one issuer are one entry; two live issuers stay two entries, for the merge to reject.
 */
export function numberingEntries(rules: NumberingRule[], networks: Network[], codes: CallingCodeTable): RegistryEntry[] {
  const entries: RegistryEntry[] = [];
  const countries = byCountry(networks);
  const located = locator(networks, codes);
  for (const rule of rules) {
    const own = countries.get(rule.country) ?? [];
    if (rule.scheme === "itu") continue;
    if (rule.scheme === "us-network-code") {
      for (const [code, network] of usNetworks(own)) entries.push(ruleEntry(`8901${code}`, network, rule, located));
      continue;
    }
    const networks = rule.scheme === "us-mcc-mnc" ? own.filter(isUsMccNetwork) : own;
    const byPrefix = new Map<string, Network[]>();
    for (const network of networks) {
      const prefix = rule.scheme === "mnc" ? `89${rule.callingCode}${rule.nationalDigits}${network.mnc}` : `89${network.mcc}${network.mnc}`;
      const list = byPrefix.get(prefix) ?? [];
      const first = list[0];
      if (!first || (first.operational === network.operational && !sameIssuer(first.name, network.name))) list.push(network);
      byPrefix.set(prefix, list);
    }
    for (const [prefix, list] of byPrefix) for (const network of list) entries.push(ruleEntry(prefix, network, rule, located));
  }
  return entries;
}
