import type { Country, HomeNetwork, Issuer } from "@iccid/core";
import type { CallingCodeTable } from "./calling-codes.js";
import { countryObject } from "./country-names.js";
import type { Prefixed } from "./prefix-index.js";
import type { RegistryEntry } from "./registry/entry.js";

/** What a lookup answers for an ICCID under one issuer prefix, built once per entry and shared by results. */
export interface IssuerAnswer extends Prefixed {
  issuer: Issuer;
  /**
   * The country whose numbering the card uses: the issuer's, except under international codes (null);
   * null too when the issuer does not say (the calling code may then).
   */
  country: Country | null;
  /** The calling code the number is under, when the issuer's country is not one of its digits' code. */
  callingCode: string | null;
  homeNetwork: HomeNetwork | null;
}

/**
 * The answer for one registry entry. A number numbered 89 + MCC + MNC (Canada's 89302…) does not carry
 * its calling code in its digits: when the digits read as another country's code, the calling code is the
 * issuer's country's. An ITU registration is under the code its digits carry (NOW, South Sudan's, under 249). Under an international code (one of no country: 800, 870, 881, 882, 883 …) the card
 * uses no country's numbering: the answer names no country, and the issuer's own country stays on the issuer.
 */
export function issuerAnswer(entry: RegistryEntry, codes: CallingCodeTable): IssuerAnswer {
  const iso2 = entry.iso2 && entry.iso2.length === 2 ? entry.iso2 : null;
  const digitsCode = codes.ofIccid(entry.prefix);
  const digitsCountries = digitsCode ? codes.countries(digitsCode) : [];
  const international = digitsCode !== null && digitsCountries.length === 0;
  // An ITU registration, and a numbering rule's 89 + calling code + MNC (Jawwal, Palestine's, under 972), carry their code.
  const carriesCode = entry.origin === "itu-e118" || (entry.origin === "numbering-rule" && !entry.mccNumbered);
  const ownCode = iso2 && !international && !carriesCode && !digitsCountries.includes(iso2) ? codes.codeOf(iso2) : null;
  const country = iso2 ? countryObject(iso2) : null;
  return {
    prefix: entry.prefix,
    custom: entry.origin === "custom",
    issuer: Object.freeze({
      prefix: entry.prefix,
      name: entry.name,
      source: entry.origin === "custom" ? "custom" : "itu-e118",
      ...(entry.registeredName ? { registered_name: entry.registeredName } : {}),
      origin: entry.origin,
      confidence: entry.confidence,
      country,
    }),
    country: international ? null : country,
    callingCode: ownCode,
    homeNetwork: entry.mcc && entry.mnc ? Object.freeze({ mcc: entry.mcc, mnc: entry.mnc }) : null,
  };
}
