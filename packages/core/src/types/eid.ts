import type { BatchSummary } from "./batch.js";
import type { Country } from "./lookup.js";
import type { EidChecks, EidErrorCode, EidWarning } from "../eid.js";

// The EID endpoints' wire types as named interfaces (see ./lookup.ts for why these exist beside zod).

/** `POST /api/v1/eid/lookup` request body. */
export interface EidLookupRequest {
  /** The EID as written: spaces, dashes, an `EID:` label and a modem's answer line (`+CEID:`, `%XEID:`) are fine (at most 256 characters). */
  eid: string;
}

/** `POST /api/v1/eid/batch` request body. */
export interface EidBatchRequest {
  /** 1 to 1,000 EIDs, each as written (at most 256 characters). */
  eids: string[];
}

/** Who made the eUICC, as far as its EID tells. */
export interface EidManufacturer {
  /** The identifier of the eUICC's issuer in its EID (SGP.02: 89, the country code and the issuer's three digits). */
  id: string;
  /** The manufacturer's name, where a source the project may use names the identifier; else null. */
  name: string | null;
}

/** What one EID says: `POST /api/v1/eid/lookup`'s answer, and each successful EID batch item's `result`. */
export interface EidResult {
  /** The normalised EID: 32 digits. */
  eid: string;
  /** The EID exactly as sent. */
  input: string;
  /** True exactly when the check digits pass (the number mod 97 is 1). */
  valid: boolean;
  /** The check digits' verdict, with the two that would pass when they fail. */
  checks: EidChecks;
  /** The last two digits. */
  check_digits: string;
  /** `sgp02` for an EID that starts with 89 (country code and issuer in fixed places), else `sgp29`. */
  layout: "sgp02" | "sgp29";
  /** SGP.02 layout: the E.164 country calling code the EID carries, null when it is not an assigned code or the layout has none. */
  calling_code: string | null;
  /** The calling code's country, where the code belongs to one country; else null. */
  country: Country | null;
  /** SGP.02 layout: the eUICC issuer's identifier and, where known, its name; null for SGP.29. */
  manufacturer: EidManufacturer | null;
  /** Remarks about how the EID was written that did not stop it from being read. */
  warnings: EidWarning[];
}

/** Why an EID batch item could not be read as an EID. */
export interface EidBatchItemError {
  /** The grammar's verdict: `empty`, `invalid_characters`, `too_short` or `too_long`. */
  code: EidErrorCode;
  /** The same in words, for people. */
  message: string;
}

/** An EID batch item that was read. */
export interface EidBatchItemOk {
  /** The item's position in the request's `eids`. */
  index: number;
  ok: true;
  /** The result, as `POST /api/v1/eid/lookup` answers it. */
  result: EidResult;
}

/** An EID batch item that was not an EID: it is not charged. */
export interface EidBatchItemFailed {
  /** The item's position in the request's `eids`. */
  index: number;
  ok: false;
  /** The item exactly as sent. */
  input: string;
  /** Why it was not read. */
  error: EidBatchItemError;
}

/** One answer of an EID batch, in the request's order: `ok` tells which kind. */
export type EidBatchItem = EidBatchItemOk | EidBatchItemFailed;

/** `POST /api/v1/eid/batch`'s answer; its summary counts as an ICCID batch's does. */
export interface EidBatchResult {
  /** One item per request item, in the request's order. */
  results: EidBatchItem[];
  /** The batch's counts: `unique` is distinct normalised EIDs plus distinct failed inputs; each distinct EID is one lookup charged. */
  summary: BatchSummary;
}
