import { createHash } from "node:crypto";
import { parseIccid, type Country, type Issuer, type LookupResult, type RejectedIccid } from "@iccid/core";
import { callingCodeTable, type CallingCodeTable } from "./calling-codes.js";
import { countryName, resolveCountry } from "./country-names.js";
import { ITU_LIST, ituIssuerEntries } from "./itu-issuers.js";
import { PrefixIndex, type IssuerEntry } from "./prefix-index.js";

/** An operator's own issuer prefix (`iccid-server issuers import`). */
export interface CustomPrefix {
  prefix: string;
  name: string;
  country_iso2: string | null;
}

export type DecodeOutcome = { ok: true; result: LookupResult } | RejectedIccid;

function fingerprint(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 10);
}

/**
 * Reads an ICCID: the core's grammar, then calling code, country and issuer from data indexed once at
 * construction. A decode is a parse plus a few Map probes; build one decoder per process.
 */
export class IccidDecoder {
  readonly dataVersion: string;
  readonly #codes: CallingCodeTable;
  readonly #index: PrefixIndex;
  readonly #countries = new Map<string, Country>();
  readonly #issuers = new WeakMap<IssuerEntry, Issuer>();

  constructor(customPrefixes: readonly CustomPrefix[] = []) {
    this.#codes = callingCodeTable();
    const itu = ituIssuerEntries().map((entry) => this.#withIso2(entry));
    const custom = customPrefixes.map(
      (c): IssuerEntry => ({
        prefix: c.prefix,
        name: c.name,
        source: "custom",
        iso2: c.country_iso2,
        countryName: null,
      }),
    );
    this.#index = new PrefixIndex([...itu, ...custom]);
    const ituEdition = `itu-e118.${Object.keys(ITU_LIST).length}.${fingerprint(ITU_LIST)}`;
    this.dataVersion = custom.length ? `${ituEdition}+custom.${custom.length}.${fingerprint(customPrefixes)}` : ituEdition;
  }

  decode(input: string): DecodeOutcome {
    const parsed = parseIccid(input);
    if (!parsed.ok) return parsed;
    const { iccid } = parsed;
    const code = this.callingCode(iccid);
    const issuer = this.#index.longestMatch(iccid);
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
        country: this.#country(code, issuer),
        issuer: issuer ? this.#issuerObject(issuer) : null,
        account_number: issuer ? iccid.slice(issuer.prefix.length, -1) : null,
        warnings: parsed.warnings,
        data_version: this.dataVersion,
      },
    };
  }

  /** The calling code after 89; North American cards are also written 8901…, meaning calling code 1. */
  callingCode(iccid: string): string | null {
    const digits = iccid.startsWith("8901") ? iccid.slice(3) : iccid.slice(2);
    return this.#codes.match(digits);
  }

  #country(code: string | null, issuer: IssuerEntry | undefined): Country | null {
    if (issuer?.source === "custom" && issuer.iso2) return this.#countryObject(issuer.iso2);
    if (code === null) return null;
    const candidates = this.#codes.countries(code);
    if (candidates.length === 0) return null; // international networks name no country
    const iso2 = issuer?.iso2 ?? (code === "1" ? null : candidates[0]!);
    return iso2 ? this.#countryObject(iso2) : null;
  }

  /** One frozen wire object per issuer entry, shared by every result that names it (no allocation per ICCID). */
  #issuerObject(entry: IssuerEntry): Issuer {
    let issuer = this.#issuers.get(entry);
    if (!issuer) {
      issuer = Object.freeze({ prefix: entry.prefix, name: entry.name, source: entry.source });
      this.#issuers.set(entry, issuer);
    }
    return issuer;
  }

  #countryObject(iso2: string): Country {
    let country = this.#countries.get(iso2);
    if (!country) {
      country = Object.freeze({ iso2, name: countryName(iso2) });
      this.#countries.set(iso2, country);
    }
    return country;
  }

  /** Resolves an ITU entry's country name to ISO once, among the countries of its calling code. */
  #withIso2(entry: IssuerEntry): IssuerEntry {
    if (!entry.countryName) return entry;
    const code = this.callingCode(entry.prefix);
    const candidates = code ? this.#codes.countries(code) : [];
    const iso2 = candidates.length === 1 ? candidates[0]! : resolveCountry(entry.countryName, candidates);
    return { ...entry, iso2 };
  }
}
