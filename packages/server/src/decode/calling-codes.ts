import metadata from "libphonenumber-js/metadata.min.json";

/** Codes of international networks (ITU "Global" ranges): they name no country. */
const INTERNATIONAL = new Set(["870", "881", "882", "883"]);
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
  /** The calling code of an ISO country, or null. */
  codeOf(iso2: string): string | null;
}

/**
 * Calling code → countries from libphonenumber-js metadata. Assigned codes do not overlap as prefixes, so
 * trying 1, 2 then 3 digits finds the one code.
 */
export function callingCodeTable(): CallingCodeTable {
  const byCode = new Map<string, readonly string[]>();
  for (const [code, countries] of Object.entries(metadata.country_calling_codes as Record<string, string[]>)) {
    byCode.set(code, countries.filter((iso2) => iso2 !== "001"));
  }
  for (const code of Object.keys((metadata as { nonGeographic?: object }).nonGeographic ?? {})) byCode.set(code, []);
  for (const code of INTERNATIONAL) byCode.set(code, []);
  for (const [code, countries] of Object.entries(E118_ONLY)) byCode.set(code, countries);
  return {
    match(digits) {
      for (let length = 1; length <= 3; length++) {
        const code = digits.slice(0, length);
        if (byCode.has(code)) return code;
      }
      return null;
    },
    ofIccid(digits) {
      return this.match(digits.startsWith("8901") ? digits.slice(3) : digits.slice(2));
    },
    countries(code) {
      return byCode.get(code) ?? [];
    },
    codeOf(iso2) {
      return (metadata.countries as Record<string, [string, ...unknown[]]>)[iso2]?.[0] ?? null;
    },
  };
}
