import { createHash } from "node:crypto";
import { parseIccid, type Country, type LookupResult, type LookupWarning, type RejectedIccid } from "@iccid/core";
import { callingCodeTable, type CallingCodeTable } from "./calling-codes.js";
import { countryObject } from "./country-names.js";
import { issuerAnswer, type IssuerAnswer } from "./issuer-answer.js";
import { PrefixIndex, type Prefixed } from "./prefix-index.js";
import { defaultRegistry, type Registry } from "./registry/registry.js";
import type { RegistryEntry } from "./registry/entry.js";
import { isUsMccReading, UsMccReadings } from "./us-mcc-readings.js";
import type { CustomPrefix } from "../store/store.js";

/** Digits whose national numbering decides the country, whatever issuer follows (Russia's 89 7 01). */
interface NumberingCountry extends Prefixed {
  country: Country;
}

export type DecodeOutcome = { ok: true; result: LookupResult } | RejectedIccid;

function fingerprint(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 10);
}

function customEntry(c: CustomPrefix): RegistryEntry {
  return {
    prefix: c.prefix,
    name: c.name,
    registeredName: null,
    origin: "custom",
    confidence: "registered",
    iso2: c.country_iso2,
    countryName: null,
    mcc: null,
    mnc: null,
    source: "iccid-server issuers import",
  };
}

/**
 * Reads an ICCID: the core's grammar, then issuer, country and calling code from the issuer registry and
 * the operator's own prefixes, indexed once at construction. The country is the numbering's: the issuer
 * entry's, else a national numbering prefix's, else a calling code's of one country; digits that also read
 * as 89 + a US MCC are weighed against their Dutch reading (us-mcc-readings.ts). A decode is a parse plus
 * a few Map probes.
 */
export class IccidDecoder {
  readonly dataVersion: string;
  readonly #codes: CallingCodeTable;
  readonly #index: PrefixIndex<IssuerAnswer>;
  readonly #numberingCountries: PrefixIndex<NumberingCountry>;
  readonly #usMcc: UsMccReadings;
  readonly #sharedCodeWarnings = new Map<string, LookupWarning>();

  constructor(customPrefixes: readonly CustomPrefix[] = [], registry: Registry = defaultRegistry()) {
    this.#codes = callingCodeTable();
    const entries = [...registry.entries.filter((entry) => !isUsMccReading(entry)), ...customPrefixes.map(customEntry)];
    this.#index = new PrefixIndex(entries.map((entry) => issuerAnswer(entry, this.#codes)));
    this.#usMcc = new UsMccReadings(registry.entries.filter(isUsMccReading), this.#codes);
    this.#numberingCountries = new PrefixIndex(
      registry.countryPrefixes.map((c) => ({ prefix: c.prefix, custom: false, country: countryObject(c.iso2) })),
    );
    this.dataVersion = customPrefixes.length
      ? `${registry.edition}+custom.${customPrefixes.length}.${fingerprint(customPrefixes)}`
      : registry.edition;
  }

  /** A decoder is its own source: one that never changes (tests, tools). */
  get current(): IccidDecoder {
    return this;
  }

  decode(input: string): DecodeOutcome {
    const parsed = parseIccid(input);
    if (!parsed.ok) return parsed;
    const { iccid } = parsed;
    let answer = this.#index.longestMatch(iccid);
    let warnings: LookupWarning[] = parsed.warnings;
    const weighed = this.#usMcc.weigh(iccid, answer);
    if (weighed) {
      answer = weighed.answer;
      if (weighed.warning) warnings = [...warnings, weighed.warning];
    }
    const code = answer?.callingCode ?? this.#codes.ofIccid(iccid);
    const country = answer?.country ?? this.#numberingCountry(iccid, code);
    const shared = country === null ? this.#sharedCodeWarning(code) : null;
    if (shared) warnings = [...warnings, shared];
    return {
      ok: true,
      result: {
        iccid,
        input: parsed.input,
        valid: parsed.valid,
        length: parsed.length,
        checks: parsed.checks,
        check_digit: parsed.check_digit,
        mii: parsed.mii,
        calling_code: code,
        country,
        issuer: answer ? answer.issuer : null,
        home_network: answer ? answer.homeNetwork : null,
        account_number: answer ? iccid.slice(answer.prefix.length, -1) : null,
        warnings,
        data_version: this.dataVersion,
      },
    };
  }

  /**
   * The warning for a country left open by a calling code several countries share (1, 7, 44, 599 …): the
   * answer is then not an unknown code's. A code of no country (882, 883 …) leaves nothing open. One frozen
   * warning per code, shared by the answers.
   */
  #sharedCodeWarning(code: string | null): LookupWarning | null {
    const countries = code === null ? [] : this.#codes.countries(code);
    if (code === null || countries.length < 2) return null;
    let warning = this.#sharedCodeWarnings.get(code);
    if (!warning) {
      warning = Object.freeze({
        code: "shared_calling_code" as const,
        message: `calling code ${code} is shared by ${countries.join(", ")} and nothing else in the number says which country`,
      });
      this.#sharedCodeWarnings.set(code, warning);
    }
    return warning;
  }

  /** The country the digits' numbering names without an issuer: a national prefix (Russia's 89 7 01), else a calling code of one country. */
  #numberingCountry(iccid: string, code: string | null): Country | null {
    return this.#numberingCountries.longestMatch(iccid)?.country ?? this.#codes.soleCountry(code);
  }
}
