import type { Country } from "@iccid/core";
import metadata from "libphonenumber-js/metadata.min.json";
import { countryObject } from "./country-names.js";

/**
 * E.118 country codes that E.164 no longer lists: ITU assigned 997 to Kazakhstan, and its E.118 issuers
 * (Kar-Tel 899701…) keep it although Kazakhstan dials +7.
 */
const E118_ONLY: Record<string, readonly string[]> = { "997": ["KZ"] };

export interface CallingCodeTable {
  /** The E.164 calling code that starts `digits`, or null when none is assigned. */
  match(digits: string): string | null;
  /** The calling code an ICCID or issuer prefix carries after its 89; North American cards also write 8901…, meaning 1. */
  ofIccid(digits: string): string | null;
  /** ISO countries sharing a code, the main country first; empty for international networks. */
  countries(code: string): readonly string[];
  /** The country a calling code names on its own: only a code of exactly one country names one (not 1, 7, 44 …); no code names none. */
  soleCountry(code: string | null): Country | null;
  /** The calling code of an ISO country, or null. */
  codeOf(iso2: string): string | null;
  /** Every ISO country the metadata knows, in its order. */
  allCountries(): readonly string[];
}

/**
 * Calling code → countries from libphonenumber-js metadata. Assigned codes do not overlap as prefixes, so
 * trying 1, 2 then 3 digits finds the one code. Codes are found by their digits' value in a table per
 * length: this runs for every ICCID without a known issuer, so no substring is cut or hashed for each
 * length tried.
 */
export function callingCodeTable(): CallingCodeTable {
  const byCode = new Map<string, readonly string[]>();
  for (const [code, countries] of Object.entries(metadata.country_calling_codes as Record<string, string[]>)) {
    byCode.set(code, countries.filter((iso2) => iso2 !== "001"));
  }
  // Codes of international networks (ITU "Global" ranges: 800, 870, 881, 882, 883, 888 …) name no country.
  for (const code of Object.keys((metadata as { nonGeographic?: object }).nonGeographic ?? {})) byCode.set(code, []);
  for (const [code, countries] of Object.entries(E118_ONLY)) byCode.set(code, countries);
  const all = Object.keys(metadata.countries).filter((iso2) => iso2 !== "001");
  // byLength[n][value]: the code of n digits with that value ("49" at byLength[2][49]).
  const byLength: Array<Array<string | undefined>> = [[], new Array(10), new Array(100), new Array(1000)];
  for (const code of byCode.keys()) byLength[code.length]![Number(code)] = code;
  const codeAt = (digits: string, start: number): string | null => {
    let value = 0;
    for (let length = 1; length <= 3 && start + length <= digits.length; length++) {
      const digit = digits.charCodeAt(start + length - 1) - 48;
      if (!(digit >= 0 && digit <= 9)) break;
      value = value * 10 + digit;
      const code = byLength[length]![value];
      if (code !== undefined) return code;
    }
    return null;
  };
  return {
    match: (digits) => codeAt(digits, 0),
    ofIccid: (digits) => codeAt(digits, digits.startsWith("8901") ? 3 : 2),
    countries(code) {
      return byCode.get(code) ?? [];
    },
    soleCountry(code) {
      const countries = code === null ? undefined : byCode.get(code);
      return countries?.length === 1 ? countryObject(countries[0]!) : null;
    },
    allCountries() {
      return all;
    },
    codeOf(iso2) {
      return (metadata.countries as Record<string, [string, ...unknown[]]>)[iso2]?.[0] ?? null;
    },
  };
}
