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
  /**
   * The issuer's own country, when known. It differs from the lookup's `country` for cards under an
   * international code (870, 881, 882, 883, 888): a 1NCE card (8988280…) has no country, its issuer is German.
   */
  country: Country | null;
}

/** The mobile network (E.212 MCC and MNC) the number's issuer prefix encodes. */
export interface HomeNetwork {
  /** Mobile country code, three digits. */
  mcc: string;
  /** Mobile network code, two or three digits. */
  mnc: string;
}

/** One way of reading a number whose digits fit two countries' numbering. */
export interface NumberingCandidate {
  /** The country whose numbering this reading uses. */
  country: Country;
  /** The issuer this reading names, or null when it names none. */
  issuer: Issuer | null;
  /** The network this reading's prefix encodes, when it encodes one. */
  home_network: HomeNetwork | null;
}

/**
 * A remark about the number: its shape (the grammar's codes), how it was read (`ambiguous_numbering`,
 * `shared_calling_code`), or the IMSI sent with it (`imsi_country_mismatch`).
 */
export interface LookupWarning {
  /**
   * What the remark is about (docs/api.md, "How an ICCID is read"); `ambiguous_numbering` when the digits
   * read as two countries' numbering; `shared_calling_code` when the country is left open because several
   * countries share the calling code; `imsi_country_mismatch` when the IMSI's country is not the ICCID's.
   */
  code: LookupWarningCode;
  /** The remark in words. */
  message: string;
  /** With `ambiguous_numbering` only: every reading, the one answered first. */
  candidates?: NumberingCandidate[];
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
  /**
   * The country whose numbering the card uses: from the issuer prefix where it is known, else from a national
   * numbering rule or a calling code of one country. Null under international codes (870, 881, 882, 883,
   * 888), whose issuer's country is `issuer.country`, and where the digits name no single country.
   */
  country: Country | null;
  /** Who issued the card, or null when no source names the prefix. */
  issuer: Issuer | null;
  /** The network the issuer prefix encodes, when it encodes one. */
  home_network: HomeNetwork | null;
  /** The digits between the issuer prefix and the check digit, when the issuer is known. */
  account_number: string | null;
  /** Remarks about the number's shape, or how it was read, that did not stop it from being read. */
  warnings: LookupWarning[];
  /** The issuer data edition the server answered from. */
  data_version: string;
  /** What the IMSI sent beside the ICCID says; present exactly when the request had one. */
  imsi?: ImsiAnswer;
}
