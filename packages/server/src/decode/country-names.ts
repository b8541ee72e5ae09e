import type { Country } from "@iccid/core";

const displayNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** The English name of an ISO 3166-1 alpha-2 country. */
export function countryName(iso2: string): string {
  return displayNames.of(iso2) ?? iso2;
}

const countries = new Map<string, Country>();

/** One frozen country object per ISO code, shared by every result that names it. */
export function countryObject(iso2: string): Country {
  let country = countries.get(iso2);
  if (!country) {
    country = Object.freeze({ iso2, name: countryName(iso2) });
    countries.set(iso2, country);
  }
  return country;
}

// ITU writes some names in its own style; these are the ones no spelling rule below reconciles.
const ITU_ALIASES: Record<string, string> = {
  "dominican rep": "DO",
  "northern marianas": "MP",
  "united states virgin islands": "VI",
  "korea rep of": "KR",
  "dem peoples rep of korea": "KP",
  "viet nam": "VN",
  "czech rep": "CZ",
  "dem rep of the congo": "CD",
  "lao pdr": "LA",
  "hong kong china": "HK",
  "macao china": "MO",
  turkiye: "TR",
  "saint vincent and the grenadines": "VC",
  "bonaire sint eustatius and saba": "BQ",
};

function key(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/\bst\b\.?/g, "saint")
    .replace(/\(([^)]*)\)/g, " $1 ")
    .replace(/[^a-z ]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const englishKeys = new Map<string, string>();

/** The comparable form of a country's English name, made once per country. */
function englishKey(iso2: string): string {
  let english = englishKeys.get(iso2);
  if (english === undefined) englishKeys.set(iso2, (english = key(countryName(iso2))));
  return english;
}

/**
 * Resolves a country named by the ITU list to ISO alpha-2, among the candidates that share its calling code.
 * Returns null when no candidate carries that name.
 */
export function resolveCountry(name: string, candidates: readonly string[]): string | null {
  const wanted = key(name);
  const alias = ITU_ALIASES[wanted];
  if (alias) return candidates.includes(alias) ? alias : null;
  for (const iso2 of candidates) {
    const english = englishKey(iso2);
    if (english === wanted || english.replace(/ and /g, " ") === wanted.replace(/ and /g, " ")) return iso2;
  }
  return null;
}
