import type { IssuerConfidence, IssuerOrigin } from "@iccid/core";

/** One issuer prefix of the registry, with where it came from. */
export interface RegistryEntry {
  /** Full prefix, including the leading 89. */
  prefix: string;
  /** The name people know the issuer by today. */
  name: string;
  /** The name the prefix is registered or listed under, when it differs from `name`. */
  registeredName: string | null;
  origin: IssuerOrigin;
  confidence: IssuerConfidence;
  /** ISO 3166-1 alpha-2 of the issuer's country, when known. */
  iso2: string | null;
  /** The issuer's country as its source names it, when that still has to be resolved to ISO (ITU entries). */
  countryName: string | null;
  /** The home network the prefix encodes (E.212), when it does. */
  mcc: string | null;
  mnc: string | null;
  /** The prefix is 89 + MCC + MNC (a numbering rule's: Canada's 89302720…), so its digits carry no calling code. */
  mccNumbered?: boolean;
  /** Where the row comes from: a source name, edition or address (not sent on the wire). */
  source: string;
}
