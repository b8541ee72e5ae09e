import type { Country } from "./lookup.js";

// The IMSI part of a lookup answer, as named interfaces (see ./lookup.ts for why these exist beside zod).

/** The mobile network an IMSI's MCC and MNC name in the network list. */
export interface ImsiNetwork {
  /** The network's name as people know it (its brand). */
  name: string;
  /** The operating company, when the list names it apart from the brand; else null. */
  operator: string | null;
}

/** A mobile virtual network operator whose IMSI range holds the IMSI. */
export interface ImsiMvno {
  /** The MVNO's name as its source writes it. */
  name: string;
  /** The IMSI prefix that matched: the MVNO's range under its host network. */
  imsi_prefix: string;
}

/** What the IMSI sent beside an ICCID says: present in a lookup answer exactly when the request had one. */
export interface ImsiAnswer {
  /** The normalised IMSI: 14 or 15 digits. */
  imsi: string;
  /** Mobile country code, three digits. */
  mcc: string;
  /** Mobile network code, two or three digits as the network list numbers the MCC's networks; null when the list cannot tell its length. */
  mnc: string | null;
  /** The MCC's country; null for international codes (901 …) and codes the list gives no single country. */
  country: Country | null;
  /** The network the MCC and MNC name, or null when the list names none. */
  network: ImsiNetwork | null;
  /** The MVNO whose IMSI range holds the IMSI, where a source names one; else null. */
  mvno: ImsiMvno | null;
}
