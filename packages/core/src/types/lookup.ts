import type { LookupWarningCode } from "../grammar-codes.js";
import type { ImsiAnswer } from "./imsi.js";

// The lookup's wire types as named interfaces with a doc comment per field: what an editor shows on a
// hover, and what a consumer's compiler reads without loading zod. The schemas in ../schemas check at
// build time that they describe the same shape as these.

/** `POST /api/v1/iccid/lookup` request body. */
export interface LookupRequest {
  /** The ICCID as written: spaces, dashes, dots and F filler are fine, so are a modem's answer line and a raw EF_ICCID dump (at most 256 characters). */
  iccid: string;
  /** The SIM's IMSI, 14 or 15 digits (spaces and dashes aside): the answer then has `imsi`, its MCC, MNC and network (at most 256 characters). */
  imsi?: string;
}

/** A remark about the number, or about the IMSI sent with it, that did not stop it from being read. */
export interface LookupWarning {
  /** The grammar's warning codes (docs/api.md, "How an ICCID is read"), and `imsi_country_mismatch`. */
  code: LookupWarningCode;
  /** The same in words, for people. */
  message: string;
}

/** A country. */
export interface Country {
  /** ISO 3166-1 alpha-2 code, e.g. `GB`. */
  iso2: string;
  /** The country's English short name. */
  name: string;
}

/** Who issued the card, and how sure the answer is. */
export interface Issuer {
  /** The issuer prefix that matched, including `89`. */
  prefix: string;
  /** The issuer's name as people know it today. */
  name: string;
  /** `custom` for the operator's own prefixes, else `itu-e118` (the built-in registry; `origin` says exactly where). */
  source: "itu-e118" | "custom";
  /** The name the prefix is registered or listed under; present only when it differs from `name`. */
  registered_name?: string;
  /**
   * Where the answer came from: `itu-e118`, an ITU-T E.118 registration; `numbering-rule`, a national numbering
   * rule read through the network-code list; `curated`, public evidence collected in the registry; `custom`,
   * the operator's own prefix.
   */
  origin: "itu-e118" | "numbering-rule" | "curated" | "custom";
  /** `registered`: the prefix is registered to this issuer; `inferred`: read from a numbering rule or evidence. */
  confidence: "registered" | "inferred";
}

/** The mobile network (E.212 MCC and MNC) the number's issuer prefix encodes. */
export interface HomeNetwork {
  /** Mobile country code, three digits. */
  mcc: string;
  /** Mobile network code, two or three digits. */
  mnc: string;
}

/** What the checks found. */
export interface LookupChecks {
  /** True when the number has an ICCID's shape: only `0-9` and `A-F`, starting with `89`, 18 to 22 long. */
  format: boolean;
  /** The Luhn check digit's verdict; `not_applicable` when the format fails. */
  luhn: "valid" | "invalid" | "not_applicable";
  /** Present when Luhn fails: the last digit that would pass (the number has a typo, perhaps in its check digit). */
  expected_check_digit?: string;
  /** Present when Luhn fails: the digit to append if the number was printed without its check digit (absent at 22 digits). */
  missing_check_digit?: string;
}

/** What one ICCID says: `POST /api/v1/iccid/lookup`'s answer, and each successful batch item's `result`. */
export interface LookupResult {
  /** The normalised ICCID: digits only. */
  iccid: string;
  /** The ICCID exactly as sent. */
  input: string;
  /** True exactly when the format passes and the Luhn check is valid. */
  valid: boolean;
  /** The number of digits. */
  length: number;
  /** The format and Luhn checks, with the digits that would pass when Luhn fails. */
  checks: LookupChecks;
  /** The last digit, which the Luhn check covers. */
  check_digit: string;
  /** The major industry identifier: `89` (telecom) for every ICCID. */
  mii: string;
  /** E.164 country calling code the number is under, null when unassigned (for 89+MCC+MNC numbers, the country's code). */
  calling_code: string | null;
  /** From the issuer where it is known, else from the calling code where the code names one country; null otherwise. */
  country: Country | null;
  /** Who issued the card, or null when no source names the prefix. */
  issuer: Issuer | null;
  /** The network the issuer prefix encodes, when it encodes one. */
  home_network: HomeNetwork | null;
  /** The digits between the issuer prefix and the check digit, when the issuer is known. */
  account_number: string | null;
  /** Remarks about the number's shape that did not stop it from being read. */
  warnings: LookupWarning[];
  /** The issuer data edition the server answered from. */
  data_version: string;
  /** What the IMSI sent beside the ICCID says; present exactly when the request had one. */
  imsi?: ImsiAnswer;
}
